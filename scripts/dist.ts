// The built portal in dist/: `npm start` and `npm run paths -- --run` serve it, and build it first
// when it is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const DIST = path.join(root, 'dist');
const sources = ['src', 'machines', 'index.html', 'vite.config.ts', 'package.json', 'public'];

function newestModification(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(entry).reduce((newest, name) => Math.max(newest, newestModification(path.join(entry, name))), stat.mtimeMs);
}

export function buildIsStale(): boolean {
  const built = path.join(DIST, 'index.html');
  // A dist/ from before the build wrote _headers counts as missing: the server needs that file.
  if (!fs.existsSync(built) || !fs.existsSync(path.join(DIST, '_headers'))) return true;
  const builtAt = fs.statSync(built).mtimeMs;
  return sources.some((source) => newestModification(path.join(root, source)) > builtAt);
}

/**
 * Builds dist/ when it is stale, its output as `stdio` says (`quiet`: warnings only, on stderr);
 * false when the build failed.
 */
export function buildIfStale(log: (line: string) => void, stdio: 'inherit' | 'ignore' | 'quiet' = 'inherit'): boolean {
  if (!buildIsStale()) return true;
  log('Building the portal (dist/ is missing or older than the sources)…');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const quiet = stdio === 'quiet';
  const result = spawnSync(process.execPath, [vite, 'build', ...(quiet ? ['--logLevel', 'warn'] : [])], {
    cwd: root,
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : stdio,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return result.status === 0;
}
