// npm start: builds the portal when dist/ is missing or older than its sources, then serves it
// with the reference API and demo data on one port (PORT, default 8080).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startServer } from '../server/index.ts';
import { banner, readServerConfigOrExit, stopOnSignals } from './server-config.ts';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const sources = ['src', 'machines', 'index.html', 'vite.config.ts', 'package.json', 'public'];

function newestModification(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(entry).reduce((newest, name) => Math.max(newest, newestModification(path.join(entry, name))), stat.mtimeMs);
}

function buildIsStale(): boolean {
  const built = path.join(dist, 'index.html');
  if (!fs.existsSync(built)) return true;
  const builtAt = fs.statSync(built).mtimeMs;
  return sources.some((source) => newestModification(path.join(root, source)) > builtAt);
}

// Settings first: a refused configuration should not wait for a build.
const config = readServerConfigOrExit(8080);

if (buildIsStale()) {
  console.log('Building the portal (dist/ is missing or older than the sources)…');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    console.error('The build failed; see the messages above.');
    process.exit(result.status ?? 1);
  }
}

const server = await startServer({ ...config, distDir: dist });
console.log(banner(server.url, { demo: config.demo, outbox: server.outbox }));
stopOnSignals(() => server.close());
