// The dashboard's Web Worker: the data service (dashboard-service.ts), answering the main thread
// through Comlink. Same origin, so the page's script-src 'self' lets it run.
import { expose } from 'comlink';
import { createDashboardService } from './dashboard-service.ts';

expose(createDashboardService());
