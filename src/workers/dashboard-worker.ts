// The dashboard's Web Worker, one per page, started as soon as the dashboard is known to open
// (features/dashboard/dashboard-preload.ts), together with the default range's calls, which the
// main thread makes for it meanwhile (dashboard-start.ts). Part of the entry: it only names the
// worker's file and that chunk.

export interface WorkerSession {
  baseUrl: string;
  fetch: unknown;
  accessToken(): string | null | Promise<string | null>;
}

let worker: Worker | undefined;
let failed = false;
let announced: Promise<void> = Promise.resolve();

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

/** Starts the worker and the default range's calls for it. */
export function startDashboardWorker(session: WorkerSession, impersonated: string | null): void {
  if (!canUseWorker(session.fetch)) return;
  const target = dashboardWorker();
  announced = Promise.all([import('./dashboard-start.ts'), session.accessToken()])
    .then(([start, token]) => start.startCalls(target, absoluteBase(session.baseUrl), token, impersonated))
    .catch(() => {});
}

/** Resolves once the worker has been told of the calls made for it: its own calls go after. */
export const earlyCallsAnnounced = () => announced;
