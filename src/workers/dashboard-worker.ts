// The dashboard's Web Worker, one per page, and the calls of the URL's range, which the main
// thread makes for it while its code loads (dashboard-start.ts).
//
// This chunk starts them twice over, once each at most for a token and an affiliate viewed as:
// - when it is evaluated, for the stored session on a dashboard route: index.html's boot script
//   loads it as soon as a session is stored, before the app's entry has run, so that the calls
//   go out while the app starts (should the app refresh that token first, the worker makes its
//   own calls with the new one, and the early answers go unused);
// - from the app, once the session is known on a dashboard route (dashboard-preload.ts).
import type { SessionCalls } from '../api/dashboard-data.ts';
import { preloadDashboardModules } from './dashboard-modules.ts';
import { startCalls } from './dashboard-start.ts';

/** What the worker's start needs of the session. */
export type WorkerSession = Pick<SessionCalls, 'baseUrl' | 'fetch' | 'accessToken'>;

/** Where the session's token record is stored (as domain/auth-token.ts has it: importing it would bring the app's start-up code). */
export const STORED_TOKEN_KEY = 'auth_token';
/** A token with less than this left is refreshed before any call (domain/auth-token.ts). */
const REFRESH_LEAD_MS = 60_000;
/** The dashboard's routes, / and /affiliate/:affiliateId, as the router matches them. */
const DASHBOARD_ROUTE = /^\/(?:affiliate\/[^/]+\/?)?$/i;
/** The home route: the dashboard of every affiliate the user may see. */
const isHome = (path: string) => path === '/';

let worker: Worker | undefined;
let failed = false;
/** Whom the calls were made for already. */
const calledFor = new Set<string>();

/** Whether the service can run in a worker: there is Worker, and the session fetches with the global fetch. */
export const canUseWorker = (sessionFetch: unknown) => sessionFetch === undefined && typeof Worker !== 'undefined';

/** In a worker a relative base would resolve against the worker script's URL. */
export const absoluteBase = (baseUrl: string) => new URL(baseUrl, document.baseURI).href;

export function dashboardWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./dashboard.worker.ts', import.meta.url), { type: 'module', name: 'dashboard-data' });
    worker.addEventListener('error', () => (failed = true));
  }
  return worker;
}

/** The worker reported an error (its script could not load) before anyone listened. */
export const dashboardWorkerFailed = () => failed;

/** The page's query, which names the dashboard's range. */
const pageSearch = () => (typeof location === 'undefined' ? '' : location.search);

function callOnce(baseUrl: string, token: string | null, impersonated: string | null, search: string, home: boolean): void {
  const key = JSON.stringify([token, impersonated]);
  if (calledFor.has(key)) return;
  calledFor.add(key);
  startCalls(dashboardWorker(), absoluteBase(baseUrl), token, impersonated, search, home);
}

/** Starts the worker and the calls of the URL's range for it; resolves once it has been told of them. */
export async function startDashboardWorker(
  session: WorkerSession,
  impersonated: string | null,
  search = pageSearch(),
  path = typeof location === 'undefined' ? '' : location.pathname,
): Promise<void> {
  if (!canUseWorker(session.fetch)) return;
  callOnce(session.baseUrl, await session.accessToken(), impersonated, search, isHome(path));
}

/**
 * When the stored access token must be refreshed, in ms since the epoch: its exp claim, read
 * without verifying (as the app reads it), less the refresh lead; 0 for what is not a JWT with one.
 * Not jwt-decode: this chunk runs before the app's entry, and must not share modules with it.
 */
function refreshDue(access: string): number {
  try {
    const payload = access.split('.')[1] ?? '';
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown } | null;
    return typeof claims?.exp === 'number' ? claims.exp * 1000 - REFRESH_LEAD_MS : 0;
  } catch {
    return 0;
  }
}

/**
 * The start for the session stored in this browser, on a dashboard route (a page load views no
 * affiliate). Only for an access token the app will call with as it is: one it must refresh first
 * starts nothing, and neither does garbage in storage.
 */
export function startForStoredSession(
  baseUrl: string,
  path: string,
  storage: Pick<Storage, 'getItem'>,
  now = Date.now(),
  search = pageSearch(),
): void {
  if (!DASHBOARD_ROUTE.test(path) || !canUseWorker(undefined)) return;
  let access: unknown;
  try {
    access = (JSON.parse(storage.getItem(STORED_TOKEN_KEY) ?? 'null') as { access?: unknown } | null)?.access;
  } catch {
    return;
  }
  if (typeof access === 'string' && refreshDue(access) > now) callOnce(baseUrl, access, null, search, isHome(path));
}

/** The mark the app sets on <html> once it runs (prerenderMarks.started: importing it would bring the app's start-up code). */
export const APP_STARTED_MARK = 'data-app-started';

// Loaded by the boot script, before the app runs. Loaded later by the app itself, it starts
// nothing of its own: the page may have been viewing as an affiliate since, and the app makes
// the calls with the affiliate viewed as (startDashboardWorker).
if (typeof window !== 'undefined' && !document.documentElement.hasAttribute(APP_STARTED_MARK)) {
  // This chunk is loaded early only for a stored session: the dashboard's code is asked for first.
  if (DASHBOARD_ROUTE.test(location.pathname)) preloadDashboardModules(document);
  try {
    startForStoredSession(__APP_CONFIG__.apiBaseUrl, location.pathname, localStorage);
  } catch {
    // No storage (a privacy mode): there is no stored session.
  }
}
