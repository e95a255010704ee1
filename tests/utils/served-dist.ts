// Real servers (startServer) on free ports, for the tests of what the server serves besides the
// API: over a small dist/ folder that the test file gives (`files`, by path below dist/), each
// server with a database of its own. The servers close after each test, the folder after the file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll } from 'vitest';
import { startServer, type RunningServer, type ServerOptions } from '../../server/index.ts';

export interface ServedDist {
  /** The file's own folder, dist/ in it. */
  readonly workDir: string;
  readonly distDir: string;
  /** A server on a free port; `base` is where a client on this machine reaches it. */
  serve(options?: Partial<ServerOptions>): Promise<{ base: string; server: RunningServer }>;
}

export function useServedDist(name: string, files: Record<string, string | Uint8Array>): ServedDist {
  let workDir = '';
  const running: RunningServer[] = [];
  let databases = 0;

  beforeAll(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-${name}-`));
    for (const [file, content] of Object.entries(files)) {
      const target = path.join(workDir, 'dist', file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
    }
    return () => fs.rmSync(workDir, { recursive: true, force: true });
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
  });

  return {
    get workDir() {
      return workDir;
    },
    get distDir() {
      return path.join(workDir, 'dist');
    },
    async serve(options = {}) {
      const server = await startServer({
        port: 0,
        databasePath: path.join(workDir, `portal-${++databases}.sqlite`),
        distDir: path.join(workDir, 'dist'),
        demo: false,
        log: () => {},
        ...options,
      });
      running.push(server);
      // A server bound to every address is reached on the IPv4 loopback.
      return { base: server.url.replace('//localhost:', '//127.0.0.1:'), server };
    },
  };
}
