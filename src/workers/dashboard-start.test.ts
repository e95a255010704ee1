import { DateTime } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { expiresIn, makeStoredToken } from '../../tests/utils/tokens.ts';
import { createApiClient } from '../api/client.ts';
import { fetchPaymentEvents } from '../api/sales.ts';
import { dateRange, toQuery } from '../domain/dates.ts';
import { serialiseClockOffset } from '../domain/server-clock.ts';
import { bootCalls } from './dashboard-boot.ts';
import { callUrl, DASHBOARD_ROUTE, last30Query, viewQuery } from './dashboard-start.ts';

const systemZone = process.env.TZ;
afterEach(() => {
  if (systemZone === undefined) delete process.env.TZ;
  else process.env.TZ = systemZone;
});

describe("the early calls' query", () => {
  // Zones with and without DST, a half-hour offset, UTC by both its names, and moments next to
  // midnight and DST changes.
  const zones = [
    'UTC',
    'Etc/UTC',
    'Europe/London',
    'Europe/Berlin',
    'Pacific/Auckland',
    'America/St_Johns',
    'Asia/Kolkata',
    'America/Santiago',
    'Australia/Lord_Howe',
  ];
  const moments = [
    '2026-03-29T00:30:00Z',
    '2026-03-29T23:59:00Z',
    '2026-10-25T01:30:00Z',
    '2026-11-23T12:00:00Z',
    '2026-04-05T15:00:00Z',
    '2026-09-06T03:00:00Z',
    '2027-01-01T00:00:00Z',
  ];

  it.each(zones)('is Last 30 days as the page asks for it (luxon), in %s', (zone) => {
    process.env.TZ = zone;
    for (const moment of moments) {
      const now = new Date(moment);
      const luxon = toQuery(dateRange('last30', { now: DateTime.fromJSDate(now, { zone }), zone }));
      expect(last30Query(now), `${zone} at ${moment}`).toEqual(luxon);
    }
  });

  // The URL's views: each mode, a custom range either way round, an incomplete one (the current
  // month), and bad values, which fall back to their defaults.
  const views = [
    { search: '?range=current', mode: 'current' },
    { search: '?range=previous&chart=sales', mode: 'previous' },
    {
      search: '?range=custom&start=2026-03-20&end=2026-04-02&day=2026-03-29',
      mode: 'custom',
      customStart: '2026-03-20',
      customEnd: '2026-04-02',
    },
    { search: '?range=custom&start=2026-10-31&end=2026-10-20', mode: 'custom', customStart: '2026-10-31', customEnd: '2026-10-20' },
    { search: '?range=custom&start=2026-10-20', mode: 'custom', customStart: '2026-10-20' },
    { search: '?range=custom&start=2026-02-30&end=2026-10-20', mode: 'custom', customEnd: '2026-10-20' },
    { search: '?range=weekly', mode: 'last30' },
    { search: '', mode: 'last30' },
  ] as const;

  it.each(zones)("is the range of the URL's view as the page asks for it (luxon), in %s", (zone) => {
    process.env.TZ = zone;
    for (const moment of moments) {
      const now = new Date(moment);
      for (const { search, mode, ...days } of views) {
        const luxon = toQuery(dateRange(mode, { now: DateTime.fromJSDate(now, { zone }), zone, ...days }));
        expect(viewQuery(search, now), `${search} in ${zone} at ${moment}`).toEqual(luxon);
      }
    }
  });

  it('is the URL the API client asks, impersonate_affiliate included', async () => {
    const asked: string[] = [];
    const client = createApiClient({
      baseUrl: 'http://portal.test/api/v2/',
      fetch: (input) => {
        asked.push(input instanceof Request ? input.url : input.toString());
        return Promise.resolve(new Response('[]', { status: 200 }));
      },
      getAccessToken: () => 'token',
      getImpersonatedAffiliate: () => 'AFF 100',
    });
    const range = { start: '2026-10-24T00:00:00.000+02:00', end: '2026-11-24T00:00:00.000+01:00' };
    await fetchPaymentEvents(client, range);
    expect(callUrl('http://portal.test/api/v2/', 'payment_events/', range, 'AFF 100')).toBe(asked[0]);
    expect(callUrl('http://portal.test/api/v2/', 'affiliates/', {}, null)).toBe('http://portal.test/api/v2/affiliates/');
  });
});

describe('the calls for the session stored in this browser, as the boot script hands it to the worker', () => {
  const PAGE = 'http://portal.test';
  /** A stored record whose access token has `seconds` left. */
  const stored = (seconds = 600) => makeStoredToken({ exp: expiresIn(seconds) });
  const calls = (record: unknown, path: string) => bootCalls([JSON.stringify(record), `${PAGE}${path}`, null, null], '/api/v2/');
  /** The calls of the range `search` names, as a page load makes them (viewing no affiliate). */
  const callsOf = (token: string, search: string, affiliate: string | null) => ({
    baseUrl: `${PAGE}/api/v2/`,
    token,
    impersonated: null,
    range: viewQuery(search),
    home: affiliate === null,
    affiliate,
  });

  it("are the URL's range's, with the stored access token, against the API's base on the page's origin; the home route's view on / only", () => {
    const record = stored();
    const custom = '?range=custom&start=2026-10-01&end=2026-10-31&day=2026-10-05';
    expect(calls(record, '/')).toEqual(callsOf(record.access, '', null));
    expect(calls(record, `/affiliate/AFF-101${custom}`)).toEqual(callsOf(record.access, custom, 'AFF-101'));
    // The route's affiliate as the router reads it.
    expect(calls(record, '/affiliate/Caf%C3%A9%201')?.affiliate).toBe('Café 1');
    expect(calls(record, '/?range=weekly')?.range).toEqual(last30Query());
  });

  it("are none off the dashboard's routes, or for a record that is not a session", () => {
    const record = stored();
    for (const path of ['/reports', '/login', '/invite/abc', '/affiliate/', '/affiliate/a/b']) {
      expect(DASHBOARD_ROUTE.test(path), path).toBe(false);
      expect(calls(record, path), path).toBeNull();
    }
    for (const garbage of ['not json', '{"access":42}', '{"access":"not.a-jwt"}', 'null']) {
      expect(bootCalls([garbage, `${PAGE}/`, null, null], '/api/v2/'), garbage).toBeNull();
    }
  });

  it("view as the affiliate the tab's choice names, when the stored user made it, as the app will after a reload", () => {
    const record = stored();
    const viewing = (viewAs: string | null) => bootCalls([JSON.stringify(record), `${PAGE}/`, null, viewAs], '/api/v2/')?.impersonated;
    expect(viewing(JSON.stringify([record.username, 'AFF-120']))).toBe('AFF-120');
    expect(viewing(JSON.stringify([record.username, '']))).toBeNull();
    expect(viewing(JSON.stringify(['someone else', 'AFF-120']))).toBeNull();
    expect(viewing('not json')).toBeNull();
    expect(viewing(null)).toBeNull();
  });

  it('are none for an access token the app refreshes before calling: expired, or under 60 s left', () => {
    for (const seconds of [-5, 30, 59]) expect(calls(stored(seconds), '/'), `${seconds} s left`).toBeNull();
    expect(calls(stored(70), '/')).not.toBeNull();
  });

  it("read the time left on the server's clock as the app kept it: a device 10 minutes fast or slow decides as the app does", () => {
    const record = (seconds: number) => JSON.stringify(stored(seconds));
    const fast = serialiseClockOffset(-10 * 60_000);
    const slow = serialiseClockOffset(10 * 60_000);
    // Issued by a server 10 minutes behind: 5 minutes left there, though expired by this device's clock.
    expect(bootCalls([record(300 - 600), `${PAGE}/`, fast, null], '/api/v2/')).not.toBeNull();
    // Issued by a server 10 minutes ahead: 30 s left there, though 10 minutes and more by this device's clock.
    expect(bootCalls([record(600 + 30), `${PAGE}/`, slow, null], '/api/v2/')).toBeNull();
    expect(bootCalls([record(600 + 120), `${PAGE}/`, slow, null], '/api/v2/')).not.toBeNull();
  });
});
