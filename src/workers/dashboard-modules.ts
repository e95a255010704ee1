// The dashboard page's code, asked for early. The build lists the chunks of the dashboard's page
// and chart and of the tab bar, and the page's stylesheet, in index.html (build/prerender-login.ts);
// for a returning user on a dashboard route the dashboard's start chunk preloads them
// while the app's entry still runs: they are then in when the app asks for them, instead of being
// asked for only then, behind the calls.

/** The name of the meta tag that lists them, space-separated. */
export const DASHBOARD_MODULES_META = 'dashboard-modules';

/**
 * Preloads (without running) each module the page lists, and fetches each stylesheet without
 * applying it: Vite's loader adds it to the page with the chunk that needs it, which then finds it
 * in the memory cache. A page without the list preloads nothing.
 */
export function preloadDashboardModules(doc: Document): void {
  const listed = doc.querySelector<HTMLMetaElement>(`meta[name="${DASHBOARD_MODULES_META}"]`)?.content ?? '';
  for (const href of listed.split(' ').filter(Boolean)) {
    const link = doc.createElement('link');
    const stylesheet = href.endsWith('.css');
    link.rel = stylesheet ? 'preload' : 'modulepreload';
    if (stylesheet) link.setAttribute('as', 'style');
    // Both are fetched in CORS mode when used (Vite's loader sets crossorigin): so are their preloads, or the fetch is not reused.
    link.crossOrigin = '';
    link.href = href;
    doc.head.append(link);
  }
}
