// The tag manager: events always go to window.dataLayer (created if missing); with VITE_GTM_ID set,
// the Google Tag Manager snippet for it loads once: at start-up, or on an invite page once the
// user has left it (src/main.tsx, src/features/invite/invite-page.tsx).
type DataLayerWindow = Window & { dataLayer?: unknown[] };

export function dataLayerOf(target: Window): unknown[] {
  const w = target as DataLayerWindow;
  w.dataLayer ??= [];
  return w.dataLayer;
}

export function pushToDataLayer(target: Window, entry: Record<string, unknown>): void {
  dataLayerOf(target).push(entry);
}

/** Google Tag Manager's standard snippet: the gtm.js start event, then its script; once. */
export function loadTagManager(target: Window, gtmId: string): void {
  if (target.document.querySelector('script[src^="https://www.googletagmanager.com/gtm.js"]')) return;
  pushToDataLayer(target, { 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = target.document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(gtmId)}`;
  target.document.head.appendChild(script);
}
