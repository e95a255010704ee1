// The dashboard's server data on the main thread. The dashboard's data service
// (src/workers/dashboard-service.ts) runs in a Web Worker: it fetches, parses and validates the
// payment events and connection fees and keeps them; SWR keeps the small handle it answers, under
// the usual keys (per range and affiliate viewed as) and rules (src/api/swr.ts: fresh for 5
// minutes, 3 retries of network failures and 5xx). What the dashboard shows is asked of the
// service for the handles, the affiliates, the filter, the range and the day.
// The session stays the one authority on tokens: each call goes out with the token it gives
// (refreshed first when about to expire), and a 401 ends it, as for any call of the API client.
// Without Worker (unit tests under jsdom), or with a fetch of its own (tests), the same service
// runs on the main thread. Opening the dashboard may have started the worker and its default
// range's calls already (src/workers/dashboard-worker.ts); the first calls asking the same take
// those answers up.
import { wrap } from 'comlink';
import useSWR from 'swr';
import useSWRImmutable from 'swr/immutable';
import type { Dashboard } from '../domain/dashboard-model.ts';
import type { StatChanges } from '../domain/period-change.ts';
import type {
  CallContext,
  ChangeRequest,
  CsvRequest,
  DashboardService,
  ListHandle,
  ListName,
  ViewRequest,
} from '../workers/dashboard-service.ts';
import type { CsvFile } from '../workers/detail-csv.ts';
import { opening } from '../workers/dashboard-opening.ts';
import { absoluteBase, canUseWorker, dashboardWorker, dashboardWorkerFailed } from '../workers/dashboard-worker.ts';
import { unwrap, type Outcome } from '../workers/wire.ts';
import type { Affiliate } from './affiliates.ts';
import { errorText } from './client.ts';
import { RELEASE } from './releasable.ts';
import type { Range } from './sales.ts';

export type { ChangeRequest, CsvFile, CsvRequest, ListHandle, ListName, ViewRequest };

/** What the data calls need of the session. */
export interface SessionCalls {
  baseUrl: string;
  fetch: typeof fetch | undefined;
  /** The token a call goes out with: at once, or after the one shared refresh of a token about to expire. */
  accessToken(): string | null | Promise<string | null>;
  /** A call met a 401 with this token: the session it belongs to ends. */
  unauthorized(refused: string | null): void;
}

/** The service's calls, answered asynchronously wherever it runs. */
interface AsyncService {
  affiliates(context: CallContext): Promise<Outcome<Affiliate[]>>;
  load(request: Parameters<DashboardService['load']>[0]): Promise<Outcome<ListHandle>>;
  view(request: ViewRequest): Promise<Outcome<Dashboard>>;
  change(request: ChangeRequest): Promise<Outcome<StatChanges>>;
  csv(request: CsvRequest): Promise<Outcome<CsvFile>>;
  release(ids: number[]): unknown;
}

function inProcess(fetch: typeof globalThis.fetch | undefined): Promise<AsyncService> {
  return import('../workers/dashboard-service.ts').then(({ createDashboardService }) => {
    const service = createDashboardService({ fetch });
    return {
      ...service,
      view: (request) => Promise.resolve(service.view(request)),
      change: (request) => Promise.resolve(service.change(request)),
    };
  });
}

function inWorker(): AsyncService {
  const worker = dashboardWorker();
  const remote = wrap<DashboardService>(worker);
  let answered = false;
  // A worker that cannot start (its script blocked or not found) leaves the work to the main thread.
  const fallback = new Promise<AsyncService>((resolve) => {
    const fail = () => {
      if (answered) return;
      worker.terminate();
      resolve(inProcess(undefined));
    };
    if (dashboardWorkerFailed()) fail();
    else worker.addEventListener('error', fail);
  });
  const either = <T>(there: () => Promise<T>, here: (service: AsyncService) => Promise<T>): Promise<T> =>
    Promise.race([
      there().then((value) => {
        answered = true;
        return value;
      }),
      fallback.then(here),
    ]);
  return {
    affiliates: (context) =>
      either<Outcome<Affiliate[]>>(
        () => remote.affiliates(context),
        (service) => service.affiliates(context),
      ),
    load: (request) =>
      either<Outcome<ListHandle>>(
        () => remote.load(request),
        (service) => service.load(request),
      ),
    view: (request) =>
      either<Outcome<Dashboard>>(
        () => remote.view(request),
        (service) => service.view(request),
      ),
    change: (request) =>
      either<Outcome<StatChanges>>(
        () => remote.change(request),
        (service) => service.change(request),
      ),
    csv: (request) =>
      either<Outcome<CsvFile>>(
        () => remote.csv(request),
        (service) => service.csv(request),
      ),
    release: (ids) =>
      either(
        () => remote.release(ids),
        (service) => Promise.resolve(service.release(ids)),
      ),
  };
}

/** A list handle in the cache: released in the service once the cache lets it go. */
export type CachedList = ListHandle & { [RELEASE]: () => void };

export interface DashboardData {
  affiliates(impersonated: string | null): Promise<Affiliate[]>;
  list(list: ListName, range: Range, impersonated: string | null): Promise<CachedList>;
  /** The dashboard of the request: derived by the service, or the one answered before. */
  view(request: ViewRequest): Promise<Dashboard>;
  /** Each stat box's change against the previous period, derived by the service. */
  change(request: ChangeRequest): Promise<StatChanges>;
  /** A detail table's CSV file, written off the main thread where there is a worker. */
  csv(request: CsvRequest): Promise<CsvFile>;
}

const VIEWS_KEPT = 16;

export const affiliatesKey = (impersonated: string | null) => ['affiliates', impersonated] as const;
export const listKey = (list: ListName, range: Range, impersonated: string | null) =>
  [list, range.start, range.end ?? null, impersonated] as const;

const affiliateLists = new WeakMap<readonly Affiliate[], number>();
let affiliateListCount = 0;

/** A view's identity: the handles, the affiliates list (by identity: the cache's), the rest by value. */
function viewKey(request: ViewRequest): string {
  let affiliates = affiliateLists.get(request.affiliates);
  if (affiliates === undefined) affiliateLists.set(request.affiliates, (affiliates = ++affiliateListCount));
  return JSON.stringify([request.events, request.fees, affiliates, request.affiliateFilter, request.range, request.selectedDay]);
}

export function createDashboardData(calls: SessionCalls): DashboardData {
  let started: Promise<AsyncService> | null = null;
  // Workers fetch with their own global fetch: a fetch of the session's own (tests) keeps the
  // service on the main thread.
  const worker = canUseWorker(calls.fetch);
  const service = () => (started ??= worker ? Promise.resolve(inWorker()) : inProcess(calls.fetch));
  const baseUrl = worker ? absoluteBase(calls.baseUrl) : calls.baseUrl;
  const views = new Map<string, Dashboard>();

  /** A call with the token the session gives now (after the shared refresh of one about to expire). */
  async function call<T>(
    impersonated: string | null,
    run: (service: AsyncService, context: CallContext) => Promise<Outcome<T>>,
  ): Promise<T> {
    const token = await calls.accessToken();
    // After the worker has heard of the calls made for it early, which this one may be.
    await opening.get(calls);
    const outcome = await run(await service(), { baseUrl, token, impersonated });
    // As for any call of the API client: a 401 ends the session the token belongs to.
    if (!outcome.ok && outcome.error.api?.kind === 'http' && outcome.error.api.status === 401) calls.unauthorized(token);
    return unwrap(outcome);
  }

  async function loadList(list: ListName, range: Range, impersonated: string | null): Promise<CachedList> {
    const handle = await call(impersonated, (service, context) => service.load({ ...context, list, start: range.start, end: range.end }));
    let released = false;
    return {
      ...handle,
      [RELEASE]: () => {
        if (released) return;
        released = true;
        void service().then((running) => running.release([handle.id]));
      },
    };
  }

  return {
    affiliates: (impersonated) => call(impersonated, (service, context) => service.affiliates(context)),
    list: loadList,

    async view(request) {
      const key = viewKey(request);
      const known = views.get(key);
      if (known) return known;
      const dashboard = unwrap(await (await service()).view(request));
      views.delete(key);
      views.set(key, dashboard);
      if (views.size > VIEWS_KEPT) views.delete(views.keys().next().value!);
      return dashboard;
    },

    change: async (request) => unwrap(await (await service()).change(request)),
    csv: async (request) => unwrap(await (await service()).csv(request)),
  };
}

const perSession = new WeakMap<SessionCalls, DashboardData>();

/** The dashboard data of a session: one service (one worker) per session. */
export function dashboardData(calls: SessionCalls): DashboardData {
  let data = perSession.get(calls);
  if (!data) perSession.set(calls, (data = createDashboardData(calls)));
  return data;
}

/** The affiliates the user (or the affiliate viewed as) may see; the same cache entry as useAffiliates'. */
export function useDashboardAffiliates(data: DashboardData, impersonated: string | null) {
  return useSWR<Affiliate[], Error>(affiliatesKey(impersonated), () => data.affiliates(impersonated));
}

/**
 * A range's payment events or connection fees, held by the service; the cache keeps the handle.
 * Not asked for while `enabled` is false (an affiliate's route, until the affiliates have it).
 */
export function useDashboardList(data: DashboardData, list: ListName, range: Range, impersonated: string | null, enabled = true) {
  return useSWR<CachedList, Error>(enabled ? listKey(list, range, impersonated) : null, () => data.list(list, range, impersonated));
}

/** A dashboard with the request it was derived from: its range, affiliates and filter. */
export interface ShownView {
  request: ViewRequest;
  dashboard: Dashboard;
}

export interface DashboardView {
  /** The dashboard of the request; null while it is being derived. */
  dashboard: Dashboard | null;
  error: string | null;
  /**
   * The dashboard to show, with its request: the request's own once derived, else the last one
   * answered to this hook, kept on screen while the next one loads. What belongs to the figures
   * on screen follows from this request, never from the one being loaded.
   */
  shown: ShownView | null;
}

/** What the dashboard shows for the request (null while its data loads), asked of the service. */
export function useDashboardView(data: DashboardData, request: ViewRequest | null): DashboardView {
  // A view follows from its request alone: it never goes stale, and a failure is not a call to
  // retry. SWR keeps the previous view while the next loads; a view is compared by identity, as
  // hashing a whole dashboard would cost the main thread what the worker saves.
  const view = useSWRImmutable<ShownView, Error, readonly ['dashboard view', ViewRequest] | null>(
    request && ['dashboard view', request],
    async ([, asked]) => ({ request: asked, dashboard: await data.view(asked) }),
    { keepPreviousData: true, shouldRetryOnError: false, compare: (a, b) => a?.dashboard === b?.dashboard },
  );
  const settled = request !== null && !view.isLoading;
  return {
    dashboard: settled && view.error === undefined ? (view.data?.dashboard ?? null) : null,
    error: settled && view.error !== undefined ? errorText(view.error) : null,
    shown: view.data ?? null,
  };
}
