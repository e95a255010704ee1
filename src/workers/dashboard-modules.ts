// The dashboard page's code, asked for early. The build lists the chunks of the dashboard's page
// and chart in index.html (build/prerender-login.ts); for a returning user on a dashboard route
// the dashboard's start preloads them, before its calls, while the app's entry still runs: the
// code is then in when the app asks for it, instead of being asked for only then, behind the calls.

/** The name of the meta tag that lists them, space-separated. */
export const DASHBOARD_MODULES_META = 'dashboard-modules';

/** Preloads (without running) each module the page lists; a page without the list preloads nothing. */
export function preloadDashboardModules(doc: Document): void {
  const listed = doc.querySelector<HTMLMetaElement>(`meta[name="${DASHBOARD_MODULES_META}"]`)?.content ?? '';
  for (const href of listed.split(' ').filter(Boolean)) {
    const link = doc.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    doc.head.append(link);
  }
}
