import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CsvFile } from './data/use-dashboard.ts';
import type { SaveFile } from '../../components/save.ts';
import { useCsvDownload, type CsvSource } from './use-csv-download.ts';

/** A source whose file comes when the test says so. */
function deferredSource() {
  let resolve: (file: CsvFile) => void = () => {};
  let reject: (error: Error) => void = () => {};
  const source = vi.fn<CsvSource>(
    () =>
      new Promise<CsvFile>((ok, fail) => {
        resolve = ok;
        reject = fail;
      }),
  );
  return { source, resolve: (file: CsvFile) => resolve(file), reject: (error: Error) => reject(error) };
}

describe('useCsvDownload', () => {
  it("saves the table's file under its name as CSV, busy while it is written, once for a double click", async () => {
    const { source, resolve } = deferredSource();
    const save = vi.fn<SaveFile>();
    const { result } = renderHook(() => useCsvDownload(source, { save }));

    let first: Promise<void> = Promise.resolve();
    act(() => {
      first = result.current.download!('platform-sales');
      void result.current.download!('platform-sales');
    });
    expect(result.current.busy.has('platform-sales')).toBe(true);
    expect(result.current.busy.has('sales-details')).toBe(false);
    expect(source).toHaveBeenCalledTimes(1);
    expect(source).toHaveBeenCalledWith('platform-sales');

    await act(async () => {
      resolve({ fileName: 'platform-sales-2026-11-05.csv', text: '\uFEFFAffiliate,Sales,Total Premium\r\nA,1,2.00' });
      await first;
    });
    expect(result.current.busy.has('platform-sales')).toBe(false);
    expect(save).toHaveBeenCalledTimes(1);
    const [blob, name] = save.mock.calls[0]!;
    expect(name).toBe('platform-sales-2026-11-05.csv');
    expect(blob.type).toBe('text/csv;charset=utf-8');
    expect(blob.size).toBe(new TextEncoder().encode('\uFEFFAffiliate,Sales,Total Premium\r\nA,1,2.00').length);
  });

  it('only logs a file that could not be made, and is no longer busy', async () => {
    const { source, reject } = deferredSource();
    const save = vi.fn<SaveFile>();
    const log = vi.fn();
    const { result } = renderHook(() => useCsvDownload(source, { save, log }));
    let pending: Promise<void> = Promise.resolve();
    act(() => {
      pending = result.current.download!('sales-details');
    });
    await act(async () => {
      reject(new Error('no longer loaded'));
      await pending;
    });
    expect(save).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith('The sales-details CSV could not be made:', expect.any(Error));
    expect(result.current.busy.has('sales-details')).toBe(false);
  });

  it('offers no download while there is nothing to export', () => {
    const { result } = renderHook(() => useCsvDownload(null));
    expect(result.current.download).toBeNull();
  });
});
