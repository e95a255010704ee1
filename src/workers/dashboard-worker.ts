// The dashboard's Web Worker, one per page, started as soon as the dashboard is known to open
// (dashboard-preload.ts loads this module, a small chunk of its own), together with the default
// range's calls, which the main thread makes for it meanwhile (dashboard-start.ts).
import type { SessionCalls } from '../api/dashboard-data.ts';
import { startCalls } from './dashboard-start.ts';

/** What the worker's start needs of the session. */
export type WorkerSession = Pick<SessionCalls, 'baseUrl' | 'fetch' | 'accessToken'>;

let worker: Worker | undefined;
let failed = false;

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

/** Starts the worker and the default range's calls for it; resolves once it has been told of them. */
export async function startDashboardWorker(session: WorkerSession, impersonated: string | null): Promise<void> {
  if (!canUseWorker(session.fetch)) return;
  const target = dashboardWorker();
  startCalls(target, absoluteBase(session.baseUrl), await session.accessToken(), impersonated);
}
