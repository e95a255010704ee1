// Opening the dashboard: as soon as the session is known on a dashboard route, its page's code,
// its chart's code, its data worker and the default range's calls all start at once, instead of
// each waiting for the one before. Part of the entry, so it only names the chunks it loads.
import { lazyModule } from '../../components/lazy-module.ts';
import type { Session } from '../../session/session.ts';
import { opening } from '../../workers/dashboard-opening.ts';
import { chartModule } from './chart-module.ts';

export const dashboardPage = lazyModule(() => import('./dashboard-page.tsx'));

let started = false;

/** Once per page load: later visits find the code loaded and the data in the cache. */
export function preloadDashboard({ calls, impersonation }: Session): void {
  if (started) return;
  started = true;
  // A worker takes a while to start: it starts first.
  const impersonated = impersonation()?.getSnapshot().context.affiliateId ?? null;
  opening.set(
    calls,
    import('../../workers/dashboard-worker.ts').then((open) => open.startDashboardWorker(calls, impersonated)).catch(() => {}),
  );
  dashboardPage.load();
  chartModule.load();
}
