// The dashboard's data service: it fetches a range's payment events and connection fees (and the
// affiliates) through the API client, parses and validates them with the response schemas, keeps
// the lists, and derives from them what the dashboard shows (deriveDashboard), answering only
// that: stat boxes, day slots, the rows of the tables, and each stat box's change against the
// previous period's lists (derived the same way). It runs in a Web Worker
// (dashboard.worker.ts), so that parsing and deriving 100,000 events never blocks the page; where
// there is no Worker (unit tests under jsdom) the main thread runs this same code.
// The session stays on the main thread: each call brings the token and the affiliate viewed as;
// a failed call's ApiError (a 401 included) goes back as an outcome (wire.ts). The calls of a
// range can be started before the page asks for them (`start`: dashboard-start.ts): each is read,
// parsed and validated as soon as its answer arrives, while the page's code is still loading (at
// 10,000 events the parsing is the longest link of the chain), and the page's load of the same
// URL with the same token takes it up. For the home route's view of such calls (`warm`), the
// dashboard is derived once they are in, so that the page's first ask for it is answered from
// the overviews kept.
import { fetchAffiliates, type Affiliate } from '../api/affiliates.ts';
import { createApiClient, type ApiClient } from '../api/client.ts';
import { fetchConnectionFees, fetchPaymentEvents } from '../api/sales.ts';
import type { ConnectionFee, PaymentEvent } from '../api/schemas.ts';
import { deriveDashboard } from '../domain/dashboard.ts';
import type { Dashboard, DashboardInput, DashboardStats } from '../domain/dashboard-model.ts';
import { createdWithin, statChanges, type StatChanges } from '../domain/period-change.ts';
import { DayIndex, parseInstant, rangeOfQuery } from '../domain/dates.ts';
import type { DetailTableName } from '../domain/detail-columns.ts';
import { callUrl, type EarlyCalls } from './dashboard-start.ts';
import { detailCsv, type CsvFile } from './detail-csv.ts';
import { settle, toWire, type Outcome } from './wire.ts';

/** What a call goes out with: the v2 base URL, the session's access token, the affiliate viewed as. */
export interface CallContext {
  baseUrl: string;
  token: string | null;
  impersonated: string | null;
}

export type ListName = 'payment_events' | 'connection_fees';

export interface ListRequest extends CallContext {
  list: ListName;
  /** The query's start and end (ISO date-times of local day starts); end left out where there is none. */
  start: string;
  end?: string;
}

/** A list the service holds: what the cache keeps instead of the list itself. */
export interface ListHandle {
  id: number;
  list: ListName;
  count: number;
}

/** The range's local day starts as the query has them, with the zone and locale of its days. */
export interface WireRange {
  start: string;
  end: string;
  zone: string;
  locale: string;
}

export interface ViewRequest {
  /** Handles of the payment events and the connection fees. */
  events: number;
  fees: number;
  affiliates: readonly Affiliate[];
  affiliateFilter: string | null;
  range: WireRange;
  selectedDay: string | null;
}

/**
 * The previous period's lists and range, against the figures the range's stat boxes show. Its
 * range is the period's instants, the start at any time of day (domain/dates.ts previousPeriod).
 */
export interface ChangeRequest extends Omit<ViewRequest, 'selectedDay'> {
  current: DashboardStats;
}

/** A detail table's CSV export: every row of the view's range or selected day. */
export interface CsvRequest extends ViewRequest {
  table: DetailTableName;
}

/** The early calls of the home route's view (every affiliate, the whole range), whose dashboard is derived once they are in. */
export interface WarmRequest extends CallContext {
  range: WireRange;
}

export interface DashboardService {
  affiliates(context: CallContext): Promise<Outcome<Affiliate[]>>;
  load(request: ListRequest): Promise<Outcome<ListHandle>>;
  view(request: ViewRequest): Outcome<Dashboard>;
  /** The change of each stat box against the previous period, derived as the range's figures are. */
  change(request: ChangeRequest): Outcome<StatChanges>;
  csv(request: CsvRequest): Promise<Outcome<CsvFile>>;
  /** The cache no longer holds these lists. */
  release(ids: number[]): void;
  /** Makes the calls of a range now, for the page's loads of the same to take up. */
  start(calls: Omit<EarlyCalls, 'home'>): void;
  /** The calls just made early are the home route's view: derive it once they are in. */
  warm(request: WarmRequest): void;
}

interface HeldList {
  list: ListName;
  items: readonly PaymentEvent[] | readonly ConnectionFee[];
}

/** The whole range's dashboard of a pair of lists, and where each of their items falls. */
interface Overview {
  lists: [number, number];
  dashboard: Dashboard;
  days: { index: DayIndex; events: Int32Array; fees: Int32Array } | null;
}

/** Overviews kept for a quick answer when the user selects a day or comes back to a view. */
const OVERVIEWS_KEPT = 4;
/** How long a call started early waits for the page's load that takes it up. */
const EARLY_KEPT_MS = 60_000;

export function createDashboardService(options: { fetch?: typeof fetch } = {}): DashboardService {
  const lists = new Map<number, HeldList>();
  const overviews = new Map<string, Overview>();
  let nextId = 1;
  /** The loads of calls started early, by URL and token, until the same load takes one up. */
  const started = new Map<string, Promise<Outcome<ListHandle>> | Promise<Outcome<Affiliate[]>>>();

  /** The load started for this call if there is one (taken up once), else a new one. */
  function startedOr<T extends Outcome<ListHandle> | Outcome<Affiliate[]>>(key: string, load: () => Promise<T>): Promise<T> {
    const loading = started.get(key) as Promise<T> | undefined;
    if (!loading) return load();
    started.delete(key);
    return loading;
  }

  const fetchAffiliatesOf = (context: CallContext) => settle(() => fetchAffiliates(clientFor(context)));
  const loadAffiliates = (context: CallContext) =>
    startedOr(callKey(affiliatesUrl(context), context.token), () => fetchAffiliatesOf(context));
  const loadList = (request: ListRequest) => startedOr(callKey(listUrl(request), request.token), () => fetchList(request));

  const fetchList = (request: ListRequest) =>
    settle(async () => {
      const client = clientFor(request);
      const range = { start: request.start, end: request.end };
      const items = request.list === 'payment_events' ? await fetchPaymentEvents(client, range) : await fetchConnectionFees(client, range);
      const id = nextId++;
      lists.set(id, { list: request.list, items });
      return { id, list: request.list, count: items.length };
    });

  function clientFor({ baseUrl, token, impersonated }: CallContext): ApiClient {
    return createApiClient({ baseUrl, fetch: options.fetch, getAccessToken: () => token, getImpersonatedAffiliate: () => impersonated });
  }

  function held<T extends HeldList['items']>(id: number, list: ListName): T {
    const found = lists.get(id);
    if (found?.list !== list) throw new Error(`The dashboard's ${list.replace('_', ' ')} are no longer loaded`);
    return found.items as T;
  }

  /** What a request derives from: its held lists, affiliates, filter, range and zone. */
  function inputOf(request: Omit<ViewRequest, 'selectedDay'>): Omit<DashboardInput, 'selectedDay'> {
    return {
      events: held<PaymentEvent[]>(request.events, 'payment_events'),
      fees: held<ConnectionFee[]>(request.fees, 'connection_fees'),
      affiliates: request.affiliates,
      affiliateFilter: request.affiliateFilter,
      range: rangeOfQuery(request.range),
      zone: request.range.zone,
    };
  }

  function overviewOf(request: ViewRequest, input: Omit<DashboardInput, 'selectedDay'>): Overview {
    const { events, fees, affiliates, affiliateFilter, range } = request;
    const key = JSON.stringify([events, fees, affiliateFilter, range, affiliates]);
    let overview = overviews.get(key);
    if (overview) {
      overviews.delete(key);
    } else {
      overview = { lists: [events, fees], dashboard: deriveDashboard({ ...input, selectedDay: null }), days: null };
      if (overviews.size >= OVERVIEWS_KEPT) overviews.delete(overviews.keys().next().value!);
    }
    overviews.set(key, overview);
    return overview;
  }

  /**
   * A selected day changes only the tables: they are derived from that day's items alone (the
   * items of other days never reach them), against the overview's stat boxes and day slots.
   */
  function withDay(overview: Overview, input: Omit<DashboardInput, 'selectedDay'>, selectedDay: string): Dashboard {
    if (!overview.days) {
      const index = new DayIndex(input.range);
      overview.days = { index, events: slotsOf(input.events, index), fees: slotsOf(input.fees, index) };
    }
    const days = overview.days;
    const slot = days.index.keys.indexOf(selectedDay);
    const day = deriveDashboard({
      ...input,
      events: input.events.filter((_, i) => slot >= 0 && days.events[i] === slot),
      fees: input.fees.filter((_, i) => slot >= 0 && days.fees[i] === slot),
      selectedDay,
    });
    const whole = overview.dashboard;
    return {
      ...whole,
      salesDetails: day.salesDetails,
      platformSalesTable: day.platformSalesTable,
      connectionFeeTable: { ...day.connectionFeeTable, hasItems: whole.connectionFeeTable.hasItems },
    };
  }

  /**
   * A table's CSV file, derived from the same lists, range and zone as the view. The view's tables
   * hold every row but for Sales Details without a selected day (the newest 20): that one is
   * derived again with all of its rows.
   */
  const csvOf = (request: CsvRequest) =>
    settle(() => {
      const input = inputOf(request);
      const { range } = input;
      const { selectedDay, table } = request;
      let dashboard: Dashboard;
      if (selectedDay === null && table === 'sales-details') {
        dashboard = deriveDashboard({ ...input, selectedDay: null, allSalesDetails: true });
      } else {
        const overview = overviewOf(request, input);
        dashboard = selectedDay === null ? overview.dashboard : withDay(overview, input, selectedDay);
      }
      return detailCsv(request.table, dashboard, range, request.selectedDay);
    });

  return {
    affiliates: loadAffiliates,
    load: loadList,
    csv: csvOf,

    view(request) {
      try {
        const input = inputOf(request);
        const overview = overviewOf(request, input);
        const dashboard = request.selectedDay === null ? overview.dashboard : withDay(overview, input, request.selectedDay);
        return { ok: true, value: dashboard };
      } catch (error) {
        return { ok: false, error: toWire(error) };
      }
    },

    change(request) {
      try {
        // Only what lies between the period's instants counts, in the local days it falls on.
        const input = inputOf(request);
        const previous = deriveDashboard({
          ...input,
          events: createdWithin(input.events, request.range),
          fees: createdWithin(input.fees, request.range),
          selectedDay: null,
        });
        return { ok: true, value: statChanges(request.current, previous.stats) };
      } catch (error) {
        return { ok: false, error: toWire(error) };
      }
    },

    release(ids) {
      for (const id of ids) lists.delete(id);
      for (const [key, overview] of overviews) if (overview.lists.some((id) => ids.includes(id))) overviews.delete(key);
    },

    start(calls) {
      const { context, lists: requests, keys } = rangeCalls(calls, calls.range);
      const [affiliatesKey, ...listKeys] = keys as [string, ...string[]];
      /** The load started for `key`: the one started before (told twice, by the boot script and by the app: the calls go out once), or `load`'s. */
      const keep = <T extends Outcome<ListHandle> | Outcome<Affiliate[]>>(key: string, load: () => Promise<T>): Promise<T> => {
        const known = started.get(key) as Promise<T> | undefined;
        if (known) return known;
        const loading = load();
        started.set(key, loading as Promise<Outcome<ListHandle>> | Promise<Outcome<Affiliate[]>>);
        // Not taken up in time (the user went elsewhere): let it go.
        setTimeout(() => {
          if (started.get(key) === loading) {
            started.delete(key);
            void loading.then((outcome) => outcome.ok && 'id' in outcome.value && lists.delete(outcome.value.id));
          }
        }, EARLY_KEPT_MS);
        return loading;
      };
      const affiliates = keep(affiliatesKey, () => fetchAffiliatesOf(context));
      const { affiliate } = calls;
      requests.forEach((request, i) => {
        const key = listKeys[i]!;
        if (affiliate === null) {
          void keep(key, () => fetchList(request));
          return;
        }
        // An affiliate's route: its lists once the affiliates have it; for one they do not have,
        // no call goes out (the page says there is no such affiliate among the user's).
        const loading = keep(key, async (): Promise<Outcome<ListHandle>> => {
          const answer = await affiliates;
          if (answer.ok && answer.value.some((known) => known.id === affiliate)) return fetchList(request);
          if (started.get(key) === loading) started.delete(key);
          return { ok: false, error: toWire(new Error(`No affiliate ${affiliate} among the user's`)) };
        });
      });
    },

    warm({ range, ...context }) {
      const [affiliates, events, fees] = rangeCalls(context, range).keys.map((key) => started.get(key));
      if (!affiliates || !events || !fees) return;
      void Promise.all([affiliates, events, fees] as [
        Promise<Outcome<Affiliate[]>>,
        Promise<Outcome<ListHandle>>,
        Promise<Outcome<ListHandle>>,
      ]).then(([affiliates, events, fees]) => {
        if (!affiliates.ok || !events.ok || !fees.ok) return;
        const request: ViewRequest = {
          events: events.value.id,
          fees: fees.value.id,
          affiliates: affiliates.value,
          affiliateFilter: null,
          range,
          selectedDay: null,
        };
        // A task of its own: the answers to the page's loads of the same calls go out first.
        setTimeout(() => {
          try {
            overviewOf(request, inputOf(request));
          } catch {
            // The lists were let go meanwhile: the page's own ask derives what it needs.
          }
        });
      });
    },
  };
}

/** A call made for the worker is taken up by the same URL asked with the same token only. */
const callKey = (url: string, token: string | null) => JSON.stringify([url, token]);

const affiliatesUrl = (context: CallContext) => callUrl(context.baseUrl, 'affiliates/', {}, context.impersonated);

/** A range's three calls for a token and an affiliate viewed as: the lists' requests, and the keys of the affiliates', the payment events' and the connection fees'. */
function rangeCalls({ baseUrl, token, impersonated }: CallContext, { start, end }: { start: string; end: string }) {
  const context = { baseUrl, token, impersonated };
  const lists = (['payment_events', 'connection_fees'] as const).map((list): ListRequest => ({ ...context, list, start, end }));
  return { context, lists, keys: [affiliatesUrl(context), ...lists.map(listUrl)].map((url) => callKey(url, token)) };
}

function listUrl(request: ListRequest): string {
  const query: Record<string, string> = { start: request.start };
  if (request.end !== undefined) query.end = request.end;
  return callUrl(request.baseUrl, `${request.list}/`, query, request.impersonated);
}

/** The day slot of each item (-1 outside the range). */
function slotsOf(items: readonly { created: string }[], index: DayIndex): Int32Array {
  const slots = new Int32Array(items.length);
  for (let i = 0; i < items.length; i++) slots[i] = index.slotOf(parseInstant(items[i]!.created));
  return slots;
}
