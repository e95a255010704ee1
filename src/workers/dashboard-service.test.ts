import { DateTime } from 'luxon';
import { describe, expect, it, vi } from 'vitest';
import { generateBenchData } from '../../bench/generate.ts';
import { ApiError } from '../api/client.ts';
import { isRetryable } from '../api/swr.ts';
import { deriveDashboard } from '../domain/dashboard.ts';
import { daySlots, dayKeyOf, parseDay, toQuery } from '../domain/dates.ts';
import { money } from '../domain/money.ts';
import { statChanges } from '../domain/period-change.ts';
import { createDashboardService, type CallContext, type ViewRequest } from './dashboard-service.ts';
import { fromWire, unwrap } from './wire.ts';

// The derivation, counted: a view answered from the overviews kept is not derived again.
vi.mock('../domain/dashboard.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../domain/dashboard.ts')>();
  return { ...actual, deriveDashboard: vi.fn(actual.deriveDashboard) };
});

// The generated data as the API would answer it: payment events and connection fees of October
// 2026 in Europe/Berlin, and affiliates.
const data = generateBenchData(3_000, 600, 7);
const query = toQuery(data.range);
const BASE = 'http://portal.test/api/v2/';
const context: CallContext = { baseUrl: BASE, token: 'access-token', impersonated: null };
const wireRange = { ...query, zone: data.zone, locale: 'en-US' };
/** The affiliates as the API answers them. */
const apiAffiliates = data.affiliates.map((a) => ({ affiliate_ID: a.id, name: a.name, parent: a.parent_id }));

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    statusText: status === 200 ? 'OK' : 'Error',
    headers: { 'Content-Type': 'application/json' },
  });

/** The API: the generated lists, and what each call asked for. */
function api(answer?: (path: string) => Response | undefined) {
  const calls: { url: URL; authorization: string | null }[] = [];
  const fetch = vi.fn<typeof globalThis.fetch>((input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    calls.push({ url, authorization: new Headers(init?.headers).get('Authorization') });
    const path = url.pathname.replace('/api/v2/', '');
    const special = answer?.(path);
    if (special) return Promise.resolve(special);
    if (path === 'payment_events/') return Promise.resolve(json(data.events));
    if (path === 'connection_fees/') return Promise.resolve(json(data.fees));
    if (path === 'affiliates/') return Promise.resolve(json(apiAffiliates));
    return Promise.resolve(json({ detail: 'Not found.' }, 404));
  });
  return { fetch, calls };
}

async function loaded(service: ReturnType<typeof createDashboardService>) {
  const events = unwrap(await service.load({ ...context, list: 'payment_events', ...query }));
  const fees = unwrap(await service.load({ ...context, list: 'connection_fees', ...query }));
  return { events, fees };
}

/** The view of the loaded lists over the whole range for every affiliate, unless told otherwise. */
const viewOf = (
  { events, fees }: Awaited<ReturnType<typeof loaded>>,
  view: Partial<Pick<ViewRequest, 'affiliateFilter' | 'selectedDay'>> = {},
): ViewRequest => ({
  events: events.id,
  fees: fees.id,
  affiliates: data.affiliates,
  affiliateFilter: null,
  range: wireRange,
  selectedDay: null,
  ...view,
});

describe('the dashboard data service (run in process, as without Worker)', () => {
  it('fetches a range with the token and affiliate it is given, keeps the lists and answers a handle', async () => {
    const { fetch, calls } = api();
    const service = createDashboardService({ fetch });
    const handle = unwrap(await service.load({ ...context, impersonated: 'AFF-100', list: 'payment_events', ...query }));

    expect(handle).toEqual({ id: expect.any(Number) as number, list: 'payment_events', count: data.events.length });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.authorization).toBe('Bearer access-token');
    expect(calls[0]!.url.pathname).toBe('/api/v2/payment_events/');
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({ ...query, impersonate_affiliate: 'AFF-100' });
    // The affiliates come mapped and sorted by name, as fetchAffiliates answers them.
    const affiliates = unwrap(await service.affiliates(context));
    expect(affiliates.map((a) => a.name)).toEqual([...data.affiliates].map((a) => a.name).sort((a, b) => a.localeCompare(b)));
  });

  // 96 views, each derived twice from 3,000 sales: seconds on a loaded machine. Answers are checked, not time.
  it(
    "answers deriveDashboard's dashboard for the whole range and for every selected day, with and without an affiliate filter",
    { timeout: 30_000 },
    async () => {
      const service = createDashboardService({ fetch: api().fetch });
      const lists = await loaded(service);
      const days = [null, ...daySlots(data.range).map(dayKeyOf)];
      for (const affiliateFilter of [null, 'p1', 'a2']) {
        for (const selectedDay of days) {
          const request = viewOf(lists, { affiliateFilter, selectedDay });
          const expected = deriveDashboard({ ...data, affiliateFilter, selectedDay });
          expect(unwrap(service.view(request)), `${affiliateFilter ?? 'all'} ${selectedDay ?? 'no day'}`).toEqual(expected);
        }
      }
    },
  );

  it('answers the same dashboard after a structured clone, as across the worker boundary', async () => {
    const service = createDashboardService({ fetch: api().fetch });
    const request = viewOf(await loaded(service), { selectedDay: '2026-10-25' });
    const answer = service.view(structuredClone(request));
    expect(structuredClone(answer)).toEqual(answer);
    expect(unwrap(answer).salesDetails.heading).toBe('Sales Details for Oct 25, 2026');
  });

  it('lets released lists go: a view of them is an error, not a stale answer', async () => {
    const service = createDashboardService({ fetch: api().fetch });
    const lists = await loaded(service);
    service.release([lists.events.id]);
    const answer = service.view(viewOf(lists));
    expect(answer.ok).toBe(false);
    expect(() => unwrap(answer)).toThrow("The dashboard's payment events are no longer loaded");
  });

  it("answers each stat box's change against another pair of lists (the previous period's), derived as the range's figures are", async () => {
    const service = createDashboardService({ fetch: api().fetch });
    const { events, fees } = await loaded(service);
    // The same lists as the "previous period", against figures about half as large.
    const previous = deriveDashboard({ ...data, affiliateFilter: 'p1', selectedDay: null }).stats;
    const half = (value: { micro: number }) => money(Math.trunc(value.micro / 2e4) * 1e4);
    const current = {
      ...previous,
      numberOfSales: Math.trunc(previous.numberOfSales / 2),
      totalSales: half(previous.totalSales),
      referralFees: half(previous.referralFees),
      connectionFees: half(previous.connectionFees),
      numberOfPlatformSales: Math.trunc(previous.numberOfPlatformSales / 2),
      platformSales: half(previous.platformSales),
    };
    const request = { events: events.id, fees: fees.id, affiliates: data.affiliates, affiliateFilter: 'p1', range: wireRange, current };
    const changes = unwrap(service.change(structuredClone(request)));
    expect(changes).toEqual(statChanges(current, previous));
    expect(changes.referralFees).toEqual({ direction: 'down', percent: expect.stringMatching(/^(49\.9|50\.0)$/) as string });

    service.release([fees.id]);
    expect(() => unwrap(service.change(request))).toThrow("The dashboard's connection fees are no longer loaded");
  });

  it("counts for a change only what lies between the period's instants, its start at any time of day", async () => {
    const service = createDashboardService({ fetch: api().fetch });
    const { events, fees } = await loaded(service);
    // October 2026's lists as the "previous period" from October 10 at 13:30 to October 20.
    const period = {
      start: parseDay('2026-10-10', data.zone)!.set({ hour: 13, minute: 30 }),
      end: parseDay('2026-10-20', data.zone)!,
    };
    const within = ({ created }: { created: string }) => {
      const time = DateTime.fromISO(created);
      return time >= period.start && time < period.end;
    };
    const previous = deriveDashboard({
      ...data,
      events: data.events.filter(within),
      fees: data.fees.filter(within),
      range: { start: period.start.startOf('day'), end: period.end },
      affiliateFilter: null,
      selectedDay: null,
    }).stats;
    // The whole days from October 10 on would count more.
    const wholeDays = deriveDashboard({
      ...data,
      range: { start: period.start.startOf('day'), end: period.end },
      affiliateFilter: null,
      selectedDay: null,
    }).stats;
    expect(wholeDays.numberOfSales).toBeGreaterThan(previous.numberOfSales);
    const current = deriveDashboard({ ...data, affiliateFilter: null, selectedDay: null }).stats;
    const request = {
      events: events.id,
      fees: fees.id,
      affiliates: data.affiliates,
      affiliateFilter: null,
      range: { ...toQuery(period), zone: data.zone, locale: 'en-US' },
      current,
    };
    expect(unwrap(service.change(request))).toEqual(statChanges(current, previous));
    expect(statChanges(current, previous)).not.toEqual(statChanges(current, wholeDays));
  });

  it.each([
    [
      'a 500',
      () => new Response('<html>oops</html>', { status: 500, statusText: 'Internal Server Error' }),
      { kind: 'http', status: 500, message: 'HTTP Error: 500: Internal Server Error', retried: true },
    ],
    [
      'a 401',
      () => json({ detail: 'Given token not valid for any token type' }, 401),
      { kind: 'http', status: 401, message: 'HTTP Error: 401: Error', retried: false },
    ],
    [
      'a 403',
      () => json({ detail: 'Forbidden' }, 403),
      { kind: 'http', status: 403, message: 'Forbidden: You do not have permission to access this resource.', retried: false },
    ],
    [
      'a response of the wrong shape',
      () => json([{ id: 'x' }]),
      {
        kind: 'schema',
        status: 200,
        message: expect.stringMatching(/^Invalid response from payment_events\/: 0\.id: /) as string,
        retried: false,
      },
    ],
  ])('sends back %s as the API client would have thrown it', async (_what, respond, expected) => {
    const service = createDashboardService({ fetch: api((path) => (path === 'payment_events/' ? respond() : undefined)).fetch });
    const outcome = await service.load({ ...context, list: 'payment_events', ...query });
    if (outcome.ok) throw new Error('expected a failure');
    // Plain data, as it crosses the worker boundary.
    const error = fromWire(structuredClone(outcome.error));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: expected.kind, status: expected.status, message: expected.message });
    expect(isRetryable(error)).toBe(expected.retried);
  });

  it('sends back a network failure as the retryable network error', async () => {
    const service = createDashboardService({ fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    const outcome = await service.load({ ...context, list: 'connection_fees', ...query });
    const error = outcome.ok ? null : fromWire(outcome.error);
    expect(error).toMatchObject({ kind: 'network', message: 'Network Error: the server could not be reached.' });
    expect(isRetryable(error)).toBe(true);
  });
});

describe('calls started before the page asks for them', () => {
  /** An answer whose body gives its bytes only when read (nothing is read before someone asks), and whether it was. */
  const heldAnswer = (answer: unknown) => {
    let read = false;
    const bytes = new TextEncoder().encode(JSON.stringify(answer));
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          controller.enqueue(bytes);
          controller.close();
          read = true;
        },
      },
      { highWaterMark: 0 },
    );
    return { response: new Response(stream, { headers: { 'Content-Type': 'application/json' } }), wasRead: () => read };
  };
  const paths = (calls: ReturnType<typeof api>['calls']) => calls.map((call) => call.url.pathname);

  it("makes the range's three calls at once, and answers the page's loads of the same from them, once each", async () => {
    const { fetch, calls } = api();
    const service = createDashboardService({ fetch });
    service.start({ ...context, impersonated: 'AFF-100', range: query, affiliate: null });
    expect(paths(calls)).toEqual(['/api/v2/affiliates/', '/api/v2/payment_events/', '/api/v2/connection_fees/']);
    expect(calls.map((call) => call.authorization)).toEqual(Array(3).fill('Bearer access-token'));
    expect(calls.map((call) => Object.fromEntries(call.url.searchParams))).toEqual([
      { impersonate_affiliate: 'AFF-100' },
      { ...query, impersonate_affiliate: 'AFF-100' },
      { ...query, impersonate_affiliate: 'AFF-100' },
    ]);

    const viewedAs = { ...context, impersonated: 'AFF-100' };
    expect(unwrap(await service.affiliates(viewedAs))).toHaveLength(apiAffiliates.length);
    const events = unwrap(await service.load({ ...viewedAs, list: 'payment_events', ...query }));
    const fees = unwrap(await service.load({ ...viewedAs, list: 'connection_fees', ...query }));
    expect(unwrap(service.view(viewOf({ events, fees }))).stats).toEqual(
      deriveDashboard({ ...data, affiliateFilter: null, selectedDay: null }).stats,
    );
    expect(calls).toHaveLength(3);
    // Taken up once: the next load of the range asks the API.
    unwrap(await service.load({ ...viewedAs, list: 'payment_events', ...query }));
    expect(calls).toHaveLength(4);
  });

  it("on an affiliate's route, makes the lists' calls once the affiliates have it, and none for an affiliate they do not have", async () => {
    const known = api();
    const service = createDashboardService({ fetch: known.fetch });
    service.start({ ...context, range: query, affiliate: data.affiliates[0]!.id });
    expect(paths(known.calls)).toEqual(['/api/v2/affiliates/']);
    await vi.waitFor(() =>
      expect(paths(known.calls)).toEqual(['/api/v2/affiliates/', '/api/v2/payment_events/', '/api/v2/connection_fees/']),
    );
    // The page's loads take them up.
    unwrap(await service.load({ ...context, list: 'payment_events', ...query }));
    expect(known.calls).toHaveLength(3);

    const unknown = api();
    const other = createDashboardService({ fetch: unknown.fetch });
    other.start({ ...context, range: query, affiliate: 'NOPE-1' });
    unwrap(await other.affiliates(context));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(paths(unknown.calls)).toEqual(['/api/v2/affiliates/']);
  });

  it('reads an answer as it arrives, before the page asks for it', async () => {
    const held = heldAnswer(data.events);
    const { fetch } = api((path) => (path === 'payment_events/' ? held.response : undefined));
    const service = createDashboardService({ fetch });
    service.start({ ...context, range: query, affiliate: null });
    await vi.waitFor(() => expect(held.wasRead()).toBe(true));
    expect(unwrap(await service.load({ ...context, list: 'payment_events', ...query })).count).toBe(data.events.length);
  });

  it('makes each call once, however often it is told of it (by the boot script and by the app)', () => {
    const { fetch, calls } = api();
    const service = createDashboardService({ fetch });
    service.start({ ...context, range: query, affiliate: null });
    service.start({ ...context, range: query, affiliate: null });
    expect(calls).toHaveLength(3);
  });

  it('lets an early call go when no load takes it up within a minute', async () => {
    vi.useFakeTimers();
    try {
      const { fetch, calls } = api();
      const service = createDashboardService({ fetch });
      service.start({ ...context, range: query, affiliate: null });
      await vi.advanceTimersByTimeAsync(60_000);
      unwrap(await service.load({ ...context, list: 'payment_events', ...query }));
      expect(calls).toHaveLength(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks the API itself for a load with another token', async () => {
    const { fetch, calls } = api();
    const service = createDashboardService({ fetch });
    service.start({ ...context, token: 'an older token', range: query, affiliate: null });
    unwrap(await service.load({ ...context, list: 'payment_events', ...query }));
    expect(calls.map((call) => call.authorization)).toEqual([...Array<string>(3).fill('Bearer an older token'), 'Bearer access-token']);
  });

  it("takes the answer's status as its own: a 401 answered early is the page's load's 401", async () => {
    const { fetch } = api((path) => (path === 'payment_events/' ? json({ detail: 'expired' }, 401) : undefined));
    const service = createDashboardService({ fetch });
    service.start({ ...context, range: query, affiliate: null });
    const outcome = await service.load({ ...context, list: 'payment_events', ...query });
    expect(outcome.ok ? null : outcome.error).toEqual({
      message: 'HTTP Error: 401: Error',
      api: { kind: 'http', status: 401, body: { detail: 'expired' } },
    });
  });

  it('takes a failed early call as a network failure', async () => {
    const service = createDashboardService({ fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    service.start({ ...context, range: query, affiliate: null });
    const outcome = await service.load({ ...context, list: 'payment_events', ...query });
    expect(outcome.ok ? null : outcome.error.api?.kind).toBe('network');
  });

  describe("the home route's view, told with its calls", () => {
    /** The three calls made early for the home view, and the view told to `service`. */
    function callEarly(service: ReturnType<typeof createDashboardService>) {
      service.start({ ...context, range: query, affiliate: null });
      service.warm({ ...context, range: wireRange });
    }

    /** The page's own loads and view of the home route, as the main thread asks for them. */
    async function pageView(service: ReturnType<typeof createDashboardService>, affiliateFilter: string | null = null) {
      const affiliates = unwrap(await service.affiliates(context));
      const { events, fees } = await loaded(service);
      return unwrap(service.view({ events: events.id, fees: fees.id, affiliates, affiliateFilter, range: wireRange, selectedDay: null }));
    }

    it('derives it as soon as its calls are in, and answers the page from it', async () => {
      const { fetch, calls } = api();
      const service = createDashboardService({ fetch });
      const derive = vi.mocked(deriveDashboard);
      derive.mockClear();
      callEarly(service);
      await vi.waitFor(() => expect(derive).toHaveBeenCalledTimes(1));

      const dashboard = await pageView(service);
      expect(derive).toHaveBeenCalledTimes(1);
      expect(dashboard.stats).toEqual(deriveDashboard({ ...data, affiliateFilter: null, selectedDay: null }).stats);
      // The page's loads were the early calls'.
      expect(calls).toHaveLength(3);
      // Another view of the same lists is derived when asked.
      derive.mockClear();
      await pageView(service, data.affiliates[0]!.id);
      expect(derive).toHaveBeenCalledTimes(1);
    });

    it('derives nothing ahead when one of its calls failed: the page shows that error', async () => {
      const { fetch } = api((path) => (path === 'connection_fees/' ? json({ detail: 'Error' }, 500) : undefined));
      const service = createDashboardService({ fetch });
      const derive = vi.mocked(deriveDashboard);
      derive.mockClear();
      callEarly(service);
      const outcome = await service.load({ ...context, list: 'connection_fees', ...query });
      expect(outcome.ok ? null : outcome.error.message).toBe('HTTP Error: 500: Error');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(derive).not.toHaveBeenCalled();
    });
  });
});

describe('the range across the boundary', () => {
  it("derives days in the zone it is given, whatever this thread's zone", async () => {
    const service = createDashboardService({ fetch: api().fetch });
    const dashboard = unwrap(service.view(viewOf(await loaded(service))));
    expect(dashboard.feesChart.map((slot) => slot.day)).toEqual(daySlots(data.range).map(dayKeyOf));
    expect(DateTime.fromISO(query.start).setZone(data.zone).toISODate()).toBe('2026-10-01');
  });
});
