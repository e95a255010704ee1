// The dashboard's Web Worker, one per page, and the calls of the URL's range, which it makes while
// the page's code loads (dashboard-start.ts).
//
// For a stored session on a dashboard route, index.html's boot script starts the worker itself,
// before the app's code has loaded, and loads this chunk, which asks for the dashboard page's code
// and then tells the worker of the session (the stored token record and the page's URL): the
// worker decides on the calls and makes them (should the app refresh that token first, the
// page's loads make calls of their own with the new one, and the early answers go unused). The
// app takes that worker over.
// The app tells the worker of its calls once the session is known on a dashboard route
// (startDashboardWorker, from dashboard-preload.ts), once at most for a token and an affiliate
// viewed as: the worker makes each call once however often it is told.
import type { SessionCalls } from '../api/dashboard-data.ts';
import { preloadDashboardModules } from './dashboard-modules.ts';
import { BOOTED_WORKER, DASHBOARD_ROUTE, startCalls, type BootHandOff, type EarlyMessage } from './dashboard-start.ts';

/** What the worker's start needs of the session. */
export type WorkerSession = Pick<SessionCalls, 'baseUrl' | 'fetch' | 'accessToken'>;

let worker: Worker | undefined;
let failed = false;
/** Whom the calls were made for already. */
const calledFor = new Set<string>();

/** Whether the service can run in a worker: there is Worker, and the session fetches with the global fetch. */
export const canUseWorker = (sessionFetch: unknown) => sessionFetch === undefined && typeof Worker !== 'undefined';

/** In a worker a relative base would resolve against the worker script's URL. */
export const absoluteBase = (baseUrl: string) => new URL(baseUrl, document.baseURI).href;

/** The page's worker: the one the boot script started, else a new one. */
export function dashboardWorker(): Worker {
  if (!worker) {
    const booted = window[BOOTED_WORKER];
    // The boot script's handlers have done their part: the app runs.
    if (booted) booted.onmessage = booted.onerror = null;
    worker = booted ?? new Worker(new URL('./dashboard.worker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener('error', () => (failed = true));
  }
  return worker;
}

/** The worker reported an error (its script could not load) before anyone listened. */
export const dashboardWorkerFailed = () => failed;

/** The page's query, which names the dashboard's range. */
const pageSearch = () => (typeof location === 'undefined' ? '' : location.search);

/** Tells the worker of the calls of the URL's range for the session and the affiliate viewed as; resolves once it has been told. */
export async function startDashboardWorker(
  session: WorkerSession,
  impersonated: string | null,
  search = pageSearch(),
  path = typeof location === 'undefined' ? '' : location.pathname,
): Promise<void> {
  if (!canUseWorker(session.fetch)) return;
  const token = await session.accessToken();
  const key = JSON.stringify([token, impersonated]);
  if (calledFor.has(key)) return;
  calledFor.add(key);
  startCalls(dashboardWorker(), absoluteBase(session.baseUrl), token, impersonated, search, path);
}

/** Where the session's token record is stored (as domain/auth-token.ts has it: importing it would bring the app's start-up code). */
export const STORED_TOKEN_KEY = 'auth_token';
/** Where the server clock's offset is kept (as domain/server-clock.ts has it, for the same reason). */
export const STORED_CLOCK_KEY = 'auth_clock';

/** Where the tab's choice of an affiliate to view as is kept (as domain/view-as-choice.ts has it: importing it would bring the app's start-up code). */
export const VIEW_AS_KEY = 'view_as';

/** The mark the app sets on <html> once it runs (prerenderMarks.started: importing it would bring the app's start-up code). */
export const APP_STARTED_MARK = 'data-app-started';

// Loaded by the boot script, before the app runs, for a stored session on a dashboard route: the
// dashboard's code is asked for first, then the boot's worker is told of the session (after the
// code, so that its calls never go out ahead of it). Loaded later by the app itself, it does
// neither: the app does.
if (typeof window !== 'undefined' && !document.documentElement.hasAttribute(APP_STARTED_MARK) && DASHBOARD_ROUTE.test(location.pathname)) {
  preloadDashboardModules(document);
  try {
    const stored = localStorage.getItem(STORED_TOKEN_KEY);
    const clock = localStorage.getItem(STORED_CLOCK_KEY);
    // The tab's choice of an affiliate to view as: a reload's calls are those of that view.
    if (stored !== null) {
      const boot: BootHandOff = [stored, location.href, clock, sessionStorage.getItem(VIEW_AS_KEY)];
      window[BOOTED_WORKER]?.postMessage({ boot } satisfies EarlyMessage);
    }
  } catch {
    // No storage (a privacy mode): there is no stored session, and the boot script started no worker.
  }
}
