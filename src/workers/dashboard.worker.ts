// The dashboard's Web Worker: the data service (dashboard-service.ts), answering the main thread
// through Comlink. Same origin, so the page's script-src 'self' lets it run. The calls it is told
// to make early (dashboard-start.ts) come as plain messages.
import { expose } from 'comlink';
import { createDashboardService } from './dashboard-service.ts';
import { bootCalls } from './dashboard-boot.ts';
import type { EarlyCalls, EarlyMessage } from './dashboard-start.ts';

const service = createDashboardService();

/** On the home route, derives the calls' view as soon as they are in. */
function warm({ home, baseUrl, token, impersonated, range }: EarlyCalls): void {
  if (!home) return;
  // The zone and locale luxon's dates take when none is given, the same in a page and its
  // workers: the page's view of the range has them.
  const { timeZone: zone, locale } = new Intl.DateTimeFormat().resolvedOptions();
  service.warm({ baseUrl, token, impersonated, range: { ...range, zone, locale } });
}

// Registered before Comlink's listener, which never sees these messages.
addEventListener('message', (event: MessageEvent<EarlyMessage | null>) => {
  const { boot, start } = event.data ?? {};
  if (!boot && !start) return;
  event.stopImmediatePropagation();
  if (boot) {
    const calls = bootCalls(boot, __APP_CONFIG__.apiBaseUrl);
    if (calls) service.start(calls);
    // The boot script starts the app's code on this answer: its calls are out by then (a message
    // posted to a worker waits in the page until its script has run, and then for the page's
    // thread to pass it on, which the app's code would hold back).
    postMessage(null);
    if (calls) warm(calls);
  }
  if (start) {
    service.start(start);
    warm(start);
  }
});

expose(service);
