// What the entry loads as soon as the dashboard is known to open: the dashboard's worker and the
// default range's calls for it (dashboard-worker.ts), in a small chunk of their own.
export { startDashboardWorker } from './dashboard-worker.ts';
