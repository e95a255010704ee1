// npm start: builds the portal when dist/ is missing or older than its sources, then serves it
// with the reference API and demo data on one port (PORT, default 8080).
import { startServer } from '../server/index.ts';
import { buildIfStale, DIST } from './dist.ts';
import { banner, readServerConfigOrExit, stopOnSignals } from './server-config.ts';

// Settings first: a refused configuration should not wait for a build.
const config = readServerConfigOrExit(8080);

if (!buildIfStale((line) => console.log(line))) {
  console.error('The build failed; see the messages above.');
  process.exit(1);
}

const server = await startServer({ ...config, distDir: DIST });
console.log(banner(server.url, { demo: config.demo, outbox: server.outbox }));
stopOnSignals(() => server.close());
