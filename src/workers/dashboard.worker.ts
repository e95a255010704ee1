// The dashboard's Web Worker: the data service (dashboard-service.ts), answering the main thread
// through Comlink. Same origin, so the page's script-src 'self' lets it run. The calls the main
// thread made for it before its code had loaded come as plain messages (dashboard-worker.ts).
import { expose } from 'comlink';
import { createDashboardService } from './dashboard-service.ts';
import type { EarlyMessage } from './dashboard-start.ts';

const service = createDashboardService();

// Registered before Comlink's listener, which never sees these messages.
addEventListener('message', (event: MessageEvent<EarlyMessage | null>) => {
  const { expect, answer, warm } = event.data ?? {};
  if (!expect && !answer && !warm) return;
  event.stopImmediatePropagation();
  if (expect) service.expect(expect);
  if (answer) service.answer(answer);
  if (warm) service.warm(warm);
});

expose(service);
