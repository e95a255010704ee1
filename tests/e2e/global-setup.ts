// Builds the portal once before the end-to-end tests run against dist/.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  // Vitest runs with NODE_ENV=test, which would make Vite bundle React's development build.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) throw new Error('vite build failed: the end-to-end tests need dist/');
}
