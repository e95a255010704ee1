// The dashboard's data, as the page asks for it: useDashboard. The data service (service.ts) runs
// in a Web Worker, which fetches, reads and keeps the lists and derives what the page shows; SWR
// keeps what it answers (the affiliates, the dashboard of a view, each stat box's change) under
// the view's keys (range, affiliate viewed as, affiliate, day) by the portal's cache rules
// (src/api/swr.ts: fresh for 5 minutes, 3 retries of network failures and 5xx). The session stays
// the one authority on tokens: each ask goes out with the token it gives (refreshed first when
// about to expire), and a 401 ends it, as for any call of the API client. Without Worker (unit
// tests under jsdom), or with a fetch of its own (tests), the same service runs on the main
// thread; so it does where the worker's script cannot start.
import { wrap } from 'comlink';
import { DateTime } from 'luxon';
import { useMemo } from 'react';
import useSWR from 'swr';
import type { Affiliate } from '../../../api/affiliates.ts';
import type { Dashboard } from '../../../domain/dashboard-model.ts';
import { STALE_TIME_MS } from '../../../domain/retry-policy.ts';
import { previousPeriod, rangeOfQuery, toQuery, type RangeQuery } from '../../../domain/dates.ts';
import type { DetailTableName } from '../../../domain/detail-columns.ts';
import type { StatChanges } from '../../../domain/period-change.ts';
import { selectUserKey } from '../../../../machines/auth.selectors.ts';
import type { Session, SessionCalls } from '../../../session/session.ts';
import type { CsvFile } from './detail-csv.ts';
import type { CallScope, ChangeAsk, CsvAsk, DashboardService, ViewAsk } from './service.ts';
import { unwrap, type Outcome } from './wire.ts';

export type { CsvFile };

/** What the page shows: a range, every affiliate or one, the whole range or a day. */
export interface DashboardQuery {
  range: RangeQuery;
  affiliateFilter: string | null;
  selectedDay: string | null;
}

/** A dashboard with the query it was derived for. */
interface ShownDashboard {
  query: DashboardQuery;
  dashboard: Dashboard;
}

const inProcess = (fetch: typeof globalThis.fetch | undefined): Promise<DashboardService> =>
  import('./service.ts').then(({ createDashboardService }) => createDashboardService({ fetch }));

/** The service in a worker, or on the main thread once the worker fails to start (its script blocked or not found). */
function inWorker(): DashboardService & { end(): void } {
  const worker = new Worker(new URL('./dashboard.worker.ts', import.meta.url), { type: 'module' });
  const remote = wrap<DashboardService>(worker);
  let answered = false;
  const fallback = new Promise<DashboardService>((resolve) =>
    worker.addEventListener('error', () => {
      if (answered) return;
      worker.terminate();
      resolve(inProcess(undefined));
    }),
  );
  const either =
    <A, T>(ask: (service: DashboardService, asked: A) => Promise<Outcome<T>>) =>
    (asked: A): Promise<Outcome<T>> =>
      Promise.race([
        ask(remote as unknown as DashboardService, asked).then((outcome) => {
          answered = true;
          return outcome;
        }),
        fallback.then((service) => ask(service, asked)),
      ]);
  return {
    end: () => worker.terminate(),
    affiliates: either((service, asked: CallScope) => service.affiliates(asked)),
    view: either((service, asked: ViewAsk) => service.view(asked)),
    change: either((service, asked: ChangeAsk) => service.change(asked)),
    csv: either((service, asked: CsvAsk) => service.csv(asked)),
  };
}

interface DashboardData {
  /**
   * When the part of a range that has passed is measured, for its previous period: once for every
   * view of it (each affiliate, each day: the same previous period, its lists from the cache), and
   * again once its lists would be fetched anew.
   */
  measuredAt(range: RangeQuery): number;
  affiliates(ask: Record<string, never>, impersonated: string | null): Promise<Affiliate[]>;
  view(ask: Omit<ViewAsk, keyof CallScope>, impersonated: string | null): Promise<Dashboard>;
  change(ask: Omit<ChangeAsk, keyof CallScope>, impersonated: string | null): Promise<StatChanges>;
  csv(ask: Omit<CsvAsk, keyof CallScope>, impersonated: string | null): Promise<CsvFile>;
}

function createDashboardData(calls: SessionCalls): DashboardData & { end(): void } {
  // Workers fetch with their own global fetch: a fetch of the session's own (tests) keeps the
  // service on the main thread. In a worker a relative base would resolve against its script's URL.
  const worker = calls.fetch === undefined && typeof Worker !== 'undefined';
  let started: Promise<DashboardService & { end?: () => void }> | null = null;
  const service = () => (started ??= worker ? Promise.resolve(inWorker()) : inProcess(calls.fetch));
  const baseUrl = worker ? new URL(calls.baseUrl, document.baseURI).href : calls.baseUrl;

  /** An ask with the token the session gives now; a 401 ends the session it belongs to. */
  const ask =
    <A, T>(run: (service: DashboardService, asked: A & CallScope) => Promise<Outcome<T>>) =>
    async (asked: A, impersonated: string | null): Promise<T> => {
      const token = await calls.accessToken();
      const outcome = await run(await service(), { ...asked, baseUrl, token, impersonated });
      if (!outcome.ok && outcome.error.api?.kind === 'http' && outcome.error.api.status === 401) calls.unauthorized(token);
      return unwrap(outcome);
    };
  const measured = new Map<string, number>();
  return {
    measuredAt({ start, end }) {
      const key = `${start} ${end}`;
      const now = Date.now();
      const at = measured.get(key);
      if (at !== undefined && now - at < STALE_TIME_MS) return at;
      measured.set(key, now);
      return now;
    },
    end: () => void started?.then((running) => running.end?.()),
    affiliates: ask((running, asked: CallScope) => running.affiliates(asked)),
    view: ask((running, asked: ViewAsk) => running.view(asked)),
    change: ask((running, asked: ChangeAsk) => running.change(asked)),
    csv: ask((running, asked: CsvAsk) => running.csv(asked)),
  };
}

const perSession = new WeakMap<Session, ReturnType<typeof createDashboardData>>();

/**
 * One service (one worker) per sign-in: it ends with the sign-in (Logout, a 401, another user),
 * so that whoever signs in next on the tab, the same user included, never gets its lists.
 */
function dashboardData(session: Session): DashboardData {
  let data = perSession.get(session);
  if (!data) {
    const user = selectUserKey(session.auth.getSnapshot());
    const created = createDashboardData(session.calls);
    const ended = session.auth.subscribe((snapshot) => {
      if (selectUserKey(snapshot) === user) return;
      ended.unsubscribe();
      created.end();
      if (perSession.get(session) === created) perSession.delete(session);
    });
    perSession.set(session, (data = created));
  }
  return data;
}

/** The affiliates the user (or the affiliate viewed as) may see: the same cache entry as the header's (useAffiliates). */
export function useDashboardAffiliates(session: Session, impersonated: string | null) {
  const data = dashboardData(session);
  return useSWR<Affiliate[], Error>(['affiliates', impersonated], () => data.affiliates({}, impersonated));
}

const keyOf = (query: DashboardQuery, impersonated: string | null) =>
  ['dashboard', impersonated, query.range.start, query.range.end, query.range.zone, query.affiliateFilter, query.selectedDay] as const;

/**
 * The dashboard of `query` (null for none) as the affiliate viewed as: its own once derived;
 * meanwhile the last one shown of the same affiliates, kept on screen while the next range or day
 * loads. Each stat box's change belongs to the figures shown: it is asked for their query once
 * they are there.
 */
export function useDashboard(session: Session, query: DashboardQuery | null, impersonated: string | null) {
  const data = dashboardData(session);
  const key = query && keyOf(query, impersonated);
  const view = useSWR<ShownDashboard & { key: string; impersonated: string | null }, Error>(
    key,
    async () => ({ query: query!, impersonated, key: JSON.stringify(key), dashboard: await data.view(query!, impersonated) }),
    // Compared by identity: hashing a whole dashboard would cost the page what the worker saves.
    { keepPreviousData: true, compare: (a, b) => a === b },
  );
  const own = key !== null && view.data?.key === JSON.stringify(key) ? view.data : null;
  // The same affiliates' figures: only the range or the day differs.
  const kept =
    view.data && query && view.data.impersonated === impersonated && view.data.query.affiliateFilter === query.affiliateFilter ? view.data : null;
  const shown = own ?? kept;

  const previous = useMemo(() => {
    const period = shown && previousPeriod(rangeOfQuery(shown.query.range), DateTime.fromMillis(data.measuredAt(shown.query.range)));
    return period ? toQuery(period) : null;
  }, [shown, data]);
  const changes = useSWR<StatChanges, Error>(
    shown && previous && ['stat changes', impersonated, shown.query.range.start, shown.query.range.end, shown.query.affiliateFilter, previous.start],
    () => data.change({ range: shown!.query.range, previous: previous!, affiliateFilter: shown!.query.affiliateFilter }, impersonated),
    { shouldRetryOnError: false },
  );

  return {
    /** The query's own dashboard; null while it loads. */
    dashboard: own?.dashboard ?? null,
    /** What the page shows: the query's own dashboard, or the last one of the same affiliates while the next loads. */
    shown,
    /** The view's failure: a call's (the payment events' before the fees'), or the derivation's. */
    error: view.error,
    isValidating: view.isValidating,
    retry: () => void view.mutate(),
    changes: changes.error === undefined ? (changes.data ?? null) : null,
    /** A detail table's CSV file, once the query's own dashboard is shown. */
    csv:
      own && query
        ? (table: DetailTableName) => data.csv({ ...query, table }, impersonated)
        : null,
  };
}
