import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../api/client.ts';
import { REVOKE_DELAY_MS, saveInBrowser, useReportDownload, type SaveFile } from './use-report-download.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('saveInBrowser', () => {
  it('clicks a temporary <a download> to an object URL of the file, then revokes the URL', () => {
    vi.useFakeTimers();
    const file = new Blob(['PK'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    const create = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://portal.test/report');
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: { href: string; download: string; inDocument: boolean }[] = [];
    const onClick = (event: MouseEvent) => {
      const link = event.target as HTMLAnchorElement;
      clicked.push({ href: link.href, download: link.download, inDocument: document.body.contains(link) });
      event.preventDefault(); // jsdom does not navigate
    };
    document.addEventListener('click', onClick);
    try {
      saveInBrowser(file, 'report-3-2026-12-16.xlsx');
    } finally {
      document.removeEventListener('click', onClick);
    }

    expect(create).toHaveBeenCalledWith(file);
    expect(clicked).toEqual([{ href: 'blob:http://portal.test/report', download: 'report-3-2026-12-16.xlsx', inDocument: true }]);
    expect(document.querySelector('a[download]')).toBeNull();
    expect(revoke).not.toHaveBeenCalled();
    vi.advanceTimersByTime(REVOKE_DELAY_MS);
    expect(revoke).toHaveBeenCalledWith('blob:http://portal.test/report');
  });
});

describe('useReportDownload', () => {
  it('starts one download per report however often it is asked while one runs', async () => {
    let answer: (response: Response) => void = () => {};
    const fetch = vi.fn<typeof globalThis.fetch>(() => new Promise<Response>((resolve) => (answer = resolve)));
    const client = createApiClient({ baseUrl: '/api/v2/', fetch, getAccessToken: () => 'access' });
    const save = vi.fn<SaveFile>();
    const track = vi.fn();
    const report = { id: 3, report_date: '2026-12-16' };
    const { result } = renderHook(() => useReportDownload({ client, save, track }));

    let first: Promise<void> = Promise.resolve();
    act(() => {
      first = result.current.download(report);
      void result.current.download(report);
    });
    expect(result.current.isDownloading(3)).toBe(true);
    expect(result.current.isDownloading(1)).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/v2/reports/affiliate/3/download/');
    expect(new Headers(fetch.mock.calls[0]?.[1]?.headers).get('Authorization')).toBe('Bearer access');

    await act(async () => {
      answer(new Response('PK'));
      await first;
    });
    expect(result.current.isDownloading(3)).toBe(false);
    expect(save).toHaveBeenCalledTimes(1);
    const [file, fileName] = save.mock.calls[0]!;
    expect(fileName).toBe('report-3-2026-12-16.xlsx');
    expect(await file.text()).toBe('PK');
    expect(track).toHaveBeenCalledWith({ event: 'report_download', report_id: 3, report_date: '2026-12-16' });
  });

  it('logs a refused download through the given log, and tracks nothing', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(() =>
      Promise.resolve(new Response('{"detail":"Not found."}', { status: 404, statusText: 'Not Found' })),
    );
    const client = createApiClient({ baseUrl: '/api/v2/', fetch, getAccessToken: () => 'access' });
    const save = vi.fn<SaveFile>();
    const track = vi.fn();
    const log = vi.fn();
    const { result } = renderHook(() => useReportDownload({ client, save, track, log }));

    await act(() => result.current.download({ id: 9, report_date: '2026-12-16' }));

    expect(log).toHaveBeenCalledWith('Report 9 could not be downloaded:', expect.objectContaining({ status: 404 }));
    expect(save).not.toHaveBeenCalled();
    expect(track).not.toHaveBeenCalled();
    expect(result.current.isDownloading(9)).toBe(false);
  });
});
