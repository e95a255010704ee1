import { DateTime } from 'luxon';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { expiresIn, makeStoredToken } from '../../tests/utils/tokens.ts';
import type { DashboardService } from './dashboard-service.ts';
import { viewQuery, type EarlyMessage } from './dashboard-start.ts';

// The worker's script, run here in the page's global scope: its service and Comlink are faked.
const service = { start: vi.fn<DashboardService['start']>(), warm: vi.fn<DashboardService['warm']>() };
vi.mock('./dashboard-service.ts', () => ({ createDashboardService: () => service }));
vi.mock('comlink', () => ({ expose: vi.fn() }));

const posted: unknown[] = [];

beforeAll(async () => {
  vi.stubGlobal('postMessage', (message: unknown) => posted.push(message));
  await import('./dashboard.worker.ts');
});
afterAll(() => vi.unstubAllGlobals());
beforeEach(() => {
  service.start.mockReset();
  service.warm.mockReset();
});

const tell = (message: EarlyMessage) => dispatchEvent(new MessageEvent('message', { data: message }));

describe("the dashboard's worker, told of early calls", () => {
  it("makes the boot's calls for the stored session, then answers (the boot script starts the app on it), and derives the home route's view in the zone and locale luxon takes", () => {
    expect(posted).toEqual([]);
    const record = makeStoredToken({ exp: expiresIn(600) });
    let answeredAtStart: number | null = null;
    service.start.mockImplementation(() => (answeredAtStart = posted.length));
    tell({ boot: [JSON.stringify(record), `${window.location.origin}/`, null, null] });
    expect(answeredAtStart).toBe(0);
    expect(posted).toEqual([null]);
    const calls = { baseUrl: `${window.location.origin}/api/v2/`, token: record.access, impersonated: null, range: viewQuery('') };
    expect(service.start.mock.calls).toEqual([[{ ...calls, home: true, affiliate: null }]]);
    const now = DateTime.local();
    expect(service.warm.mock.calls).toEqual([[{ ...calls, range: { ...calls.range, zone: now.zoneName, locale: now.locale } }]]);
  });

  it("makes none for a session the app must refresh first, answering all the same; makes the app's, with no view off the home route", () => {
    posted.length = 0;
    tell({ boot: [JSON.stringify(makeStoredToken({ exp: expiresIn(30) })), `${window.location.origin}/`, null, null] });
    expect(service.start).not.toHaveBeenCalled();
    expect(posted).toEqual([null]);
    const calls = {
      baseUrl: 'http://portal.test/api/v2/',
      token: 'refreshed',
      impersonated: 'AFF-100',
      range: viewQuery('?range=current'),
      home: false,
      affiliate: 'AFF-101',
    };
    tell({ start: calls });
    expect(service.start.mock.calls).toEqual([[calls]]);
    expect(service.warm).not.toHaveBeenCalled();
  });

  it("leaves Comlink's messages to Comlink", () => {
    const comlink = vi.fn();
    addEventListener('message', comlink);
    try {
      dispatchEvent(new MessageEvent('message', { data: { id: '1', type: 'GET', path: [] } }));
      tell({
        start: { baseUrl: 'http://portal.test/api/v2/', token: 't', impersonated: null, range: viewQuery(''), home: false, affiliate: 'A' },
      });
      expect(comlink).toHaveBeenCalledTimes(1);
    } finally {
      removeEventListener('message', comlink);
    }
  });
});
