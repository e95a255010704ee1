// Opening the dashboard: as soon as the session is known on a dashboard route, its page's code,
// its chart's code and its three calls (for the default range) all start at once, instead of each
// waiting for the one before. Part of the entry, so it only names the chunks it loads.
import { lazyModule } from '../../app/lazy-module.ts';
import type { Session } from '../../app/session.ts';
import { chartModule } from './chart-module.ts';

export const dashboardPage = lazyModule(() => import('./dashboard-page.tsx'));

let started = false;

/** Once per page load: later visits find the code loaded and the data in the cache. */
export function preloadDashboard(session: Session): void {
  if (started) return;
  started = true;
  dashboardPage.load();
  chartModule.load();
  // A failure here is the page's to show, when its own calls fail the same way.
  import('./dashboard-prefetch.ts').then((prefetch) => prefetch.prefetchDashboard(session), () => {});
}
