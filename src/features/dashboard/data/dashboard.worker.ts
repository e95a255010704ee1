// The dashboard's Web Worker: the data service (service.ts), answering the page through Comlink.
// Same origin, so the page's script-src 'self' lets it run.
import { expose } from 'comlink';
import { createDashboardService } from './service.ts';

expose(createDashboardService());
