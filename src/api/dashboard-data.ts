// The dashboard's server data on the main thread. The dashboard's data service
// (src/workers/dashboard-service.ts) runs in a Web Worker: it fetches, parses and validates the
// payment events and connection fees and keeps them; SWR keeps the small handle it answers, under
// the usual keys (per range and affiliate viewed as) and rules (src/api/swr.ts: fresh for 5
// minutes, 3 retries of network failures and 5xx). What the dashboard shows is asked of the
// service for the handles, the affiliates, the filter, the range and the day.
// The session stays the one authority on tokens: each call goes out with the token it gives
// (refreshed first when about to expire), and a 401 ends it, as for any call of the API client.
// Without Worker (unit tests under jsdom), or with a fetch of its own (tests), the same service
// runs on the main thread.
import { wrap } from 'comlink';
import { useEffect, useState } from 'react';
import useSWR from 'swr';
import type { Dashboard } from '../domain/dashboard-model.ts';
import type { CallContext, DashboardService, ListHandle, ListName, ViewRequest } from '../workers/dashboard-service.ts';
import { unwrap, type Outcome } from '../workers/wire.ts';
import type { Affiliate } from './affiliates.ts';
import { RELEASE } from './releasable.ts';
import type { Range } from './sales.ts';

export type { ListHandle, ListName, ViewRequest };

/** What the data calls need of the session. */
export interface SessionCalls {
  baseUrl: string;
  fetch: typeof fetch | undefined;
  accessToken(): string | null | Promise<string | null>;
  unauthorized(refused: string | null): void;
}

/** The service's calls, answered asynchronously wherever it runs. */
interface AsyncService {
  affiliates(context: CallContext): Promise<Outcome<Affiliate[]>>;
  load(request: Parameters<DashboardService['load']>[0]): Promise<Outcome<ListHandle>>;
  view(request: ViewRequest): Promise<Outcome<Dashboard>>;
  release(ids: number[]): unknown;
}

function inProcess(fetch: typeof globalThis.fetch | undefined): Promise<AsyncService> {
  return import('../workers/dashboard-service.ts').then(({ createDashboardService }) => {
    const service = createDashboardService({ fetch });
    return { ...service, view: (request) => Promise.resolve(service.view(request)) };
  });
}

function inWorker(): AsyncService {
  const worker = new Worker(new URL('../workers/dashboard.worker.ts', import.meta.url), { type: 'module', name: 'dashboard-data' });
  const remote = wrap<DashboardService>(worker);
  let answered = false;
  // A worker that cannot start (its script blocked or not found) leaves the work to the main thread.
  const fallback = new Promise<AsyncService>((resolve) => {
    worker.addEventListener('error', () => {
      if (answered) return;
      worker.terminate();
      resolve(inProcess(undefined));
    });
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
    affiliates: (context) => either<Outcome<Affiliate[]>>(() => remote.affiliates(context), (service) => service.affiliates(context)),
    load: (request) => either<Outcome<ListHandle>>(() => remote.load(request), (service) => service.load(request)),
    view: (request) => either<Outcome<Dashboard>>(() => remote.view(request), (service) => service.view(request)),
    release: (ids) => either(() => remote.release(ids), (service) => Promise.resolve(service.release(ids))),
  };
}

/** A list handle in the cache: released in the service once the cache lets it go. */
export type CachedList = ListHandle & { [RELEASE]: () => void };

export interface DashboardData {
  affiliates(impersonated: string | null): Promise<Affiliate[]>;
  list(list: ListName, range: Range, impersonated: string | null): Promise<CachedList>;
  view(request: ViewRequest): Promise<Dashboard>;
  /** A view answered before, kept for the moment the user comes back to it. */
  viewed(request: ViewRequest): Dashboard | undefined;
  /** Starts the calls of a dashboard about to be shown; its cache's fetchers take them up. */
  prefetch(range: Range, impersonated: string | null): void;
}

/** How long a prefetched answer waits for the fetcher that takes it up. */
const PREFETCH_KEPT_MS = 60_000;
const VIEWS_KEPT = 16;

export const affiliatesKey = (impersonated: string | null) => ['affiliates', impersonated] as const;
export const listKey = (list: ListName, range: Range, impersonated: string | null) => [list, range.start, range.end ?? null, impersonated] as const;

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
  const service = () => (started ??= calls.fetch === undefined && typeof Worker !== 'undefined' ? Promise.resolve(inWorker()) : inProcess(calls.fetch));
  // In a worker a relative base would resolve against the worker script's URL.
  const baseUrl = calls.fetch === undefined && typeof document !== 'undefined' ? new URL(calls.baseUrl, document.baseURI).href : calls.baseUrl;
  /** Answers started before their fetcher asked, with the token they went out with. */
  const prefetched = new Map<string, { token: Promise<string | null>; answer: Promise<unknown> }>();
  const views = new Map<string, Dashboard>();

  async function tokenNow(): Promise<string | null> {
    const given = calls.accessToken();
    return given instanceof Promise ? await given : given;
  }

  async function call<T>(token: string | null, impersonated: string | null, run: (service: AsyncService, context: CallContext) => Promise<Outcome<T>>): Promise<T> {
    const outcome = await run(await service(), { baseUrl, token, impersonated });
    // As for any call of the API client: a 401 ends the session the token belongs to.
    if (!outcome.ok && outcome.error.api?.kind === 'http' && outcome.error.api.status === 401) calls.unauthorized(token);
    return unwrap(outcome);
  }

  const loadAffiliates = (token: string | null, impersonated: string | null) =>
    call(token, impersonated, (service, context) => service.affiliates(context));

  async function loadList(token: string | null, list: ListName, range: Range, impersonated: string | null): Promise<CachedList> {
    const handle = await call(token, impersonated, (service, context) => service.load({ ...context, list, start: range.start, end: range.end }));
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

  /** The prefetched answer for a key if it went out with the token a call would go out with now; else a new call. */
  async function take<T>(key: readonly unknown[], load: (token: string | null) => Promise<T>): Promise<T> {
    const id = JSON.stringify(key);
    const early = prefetched.get(id);
    prefetched.delete(id);
    const [token, earlyToken] = await Promise.all([tokenNow(), early?.token]);
    return early && earlyToken === token ? (early.answer as Promise<T>) : load(token);
  }

  function early(key: readonly unknown[], load: (token: string | null) => Promise<unknown>) {
    const id = JSON.stringify(key);
    const token = tokenNow();
    const entry = { token, answer: token.then(load) };
    entry.answer.catch(() => {});
    prefetched.set(id, entry);
    // Not taken up in time (the user went elsewhere): let it go.
    setTimeout(() => {
      if (prefetched.get(id) !== entry) return;
      prefetched.delete(id);
      void entry.answer.then((value) => (value as Partial<CachedList>)[RELEASE]?.(), () => {});
    }, PREFETCH_KEPT_MS);
  }

  return {
    affiliates: (impersonated) => take(affiliatesKey(impersonated), (token) => loadAffiliates(token, impersonated)),
    list: (list, range, impersonated) => take(listKey(list, range, impersonated), (token) => loadList(token, list, range, impersonated)),

    async view(request) {
      const key = viewKey(request);
      const dashboard = unwrap(await (await service()).view(request));
      views.delete(key);
      views.set(key, dashboard);
      if (views.size > VIEWS_KEPT) views.delete(views.keys().next().value!);
      return dashboard;
    },
    viewed: (request) => views.get(viewKey(request)),

    prefetch(range, impersonated) {
      early(affiliatesKey(impersonated), (token) => loadAffiliates(token, impersonated));
      for (const list of ['payment_events', 'connection_fees'] as const) {
        early(listKey(list, range, impersonated), (token) => loadList(token, list, range, impersonated));
      }
    },
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

/** A range's payment events or connection fees, held by the service; the cache keeps the handle. */
export function useDashboardList(data: DashboardData, list: ListName, range: Range, impersonated: string | null) {
  return useSWR<CachedList, Error>(listKey(list, range, impersonated), () => data.list(list, range, impersonated));
}

export interface DashboardView {
  /** The dashboard of the request; null while it is being derived. */
  dashboard: Dashboard | null;
  error: string | null;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What the dashboard shows for the request (null while its data loads), asked of the service. */
export function useDashboardView(data: DashboardData, request: ViewRequest | null): DashboardView {
  const [answer, setAnswer] = useState<{ request: ViewRequest; view: DashboardView } | null>(null);
  useEffect(() => {
    if (request === null || data.viewed(request)) return undefined;
    let current = true;
    data.view(request).then(
      (dashboard) => current && setAnswer({ request, view: { dashboard, error: null } }),
      (error: unknown) => current && setAnswer({ request, view: { dashboard: null, error: errorText(error) } }),
    );
    return () => {
      current = false;
    };
  }, [data, request]);
  if (request === null) return { dashboard: null, error: null };
  const known = data.viewed(request);
  if (known) return { dashboard: known, error: null };
  return answer?.request === request ? answer.view : { dashboard: null, error: null };
}
