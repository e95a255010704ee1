// The dashboard's Web Worker, one per page (dashboard-start.ts starts it early), and what the
// main thread sends it besides Comlink's calls: the calls it made for the worker before the
// worker's code had loaded (`expect`), and their answers' bytes (`answer`), which the worker's API
// client takes as the answer to the same call with the same token (dashboard-service.ts).

/** A call the main thread made for the worker: the URL and token it went out with. */
export interface Expected {
  url: string;
  token: string | null;
}

/** What that call was answered: the response, or a network failure. */
export type Answer = Expected & ({ status: number; statusText: string; headers: [string, string][]; body: ArrayBuffer } | { failed: true });

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
