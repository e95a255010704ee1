// npm run dev: the reference API (API_PORT, default 8080) and Vite's dev server, which proxies
// /api and /__dev to it (vite.config.ts).
import { createServer } from 'vite';
import { startServer } from '../server/index.ts';
import { banner, readServerConfigOrExit, stopOnSignals } from './server-config.ts';

const config = readServerConfigOrExit(Number(process.env.API_PORT ?? 8080));
process.env.API_PORT = String(config.port);
const api = await startServer(config);
const vite = await createServer();
await vite.listen();
const url = vite.resolvedUrls?.local[0]?.replace(/\/$/, '') ?? api.url;
console.log(banner(url, { demo: config.demo, outbox: api.outbox }));
stopOnSignals(async () => {
  await vite.close();
  await api.close();
});
