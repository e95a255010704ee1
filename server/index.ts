// Runs the reference API and, when a built portal is given, serves it on the same port:
// the API at /api/v2/, static files from dist/ with an SPA fallback to index.html.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { DateTime } from 'luxon';
import { API_BASE, createApp } from './app.ts';
import { getMeta, openDatabase, setMeta, type Db } from './db.ts';
import { PRUNE_INTERVAL_MS, pruneExpired } from './prune.ts';
import { ensureDemoData } from './seed.ts';

export interface ServerOptions {
  port: number;
  /** Host to bind; loopback unless told otherwise. */
  hostname?: string;
  databasePath: string;
  /** The built portal to serve, or none for an API-only server (Vite serves the portal). */
  distDir?: string;
  /** Seeds demo data and lists the outbox at /__dev/outbox. */
  demo: boolean;
  accessLifetimeSeconds?: number;
  log?: (line: string) => void;
  /** Behind one reverse proxy: throttles take the client address from X-Forwarded-For. */
  trustProxy?: boolean;
}

export interface RunningServer {
  url: string;
  db: Db;
  close(): Promise<void>;
}

/** The signing key: JWT_SECRET when set, else one made on first start and kept in the database. */
function signingSecret(db: Db): Uint8Array {
  const fromEnv = process.env.JWT_SECRET;
  if (fromEnv) return new TextEncoder().encode(fromEnv);
  let stored = getMeta(db, 'jwt_secret');
  if (!stored) {
    stored = randomBytes(32).toString('hex');
    setMeta(db, 'jwt_secret', stored);
  }
  return Buffer.from(stored, 'hex');
}

export function startServer(options: ServerOptions): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => console.log(line));
  const db = openDatabase(options.databasePath);
  if (options.demo) ensureDemoData(db, { today: DateTime.local(), log });
  const { app: api } = createApp({
    db,
    secret: signingSecret(db),
    demo: options.demo,
    accessLifetimeSeconds: options.accessLifetimeSeconds,
    print: log,
    trustProxy: options.trustProxy ?? false,
  });
  // Expired rows (throttle counts, codes, mail, refresh tokens) go now and every few minutes;
  // the timer does not keep the process alive.
  pruneExpired(db, Date.now());
  const pruning = setInterval(() => pruneExpired(db, Date.now()), PRUNE_INTERVAL_MS);
  pruning.unref();

  const root = new Hono();
  root.route('/', api);
  const distDir = options.distDir;
  if (distDir) {
    const indexHtml = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
    root.use(
      '/assets/*',
      serveStatic({
        root: path.relative(process.cwd(), distDir),
        onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
      }),
    );
    // Other files of dist/ (favicon, bundle report) by name; a path without an extension, '/'
    // included, is a route of the portal.
    const files = serveStatic({ root: path.relative(process.cwd(), distDir) });
    root.use((c, next) => (/\.[a-z0-9]+$/i.test(c.req.path) && !c.req.path.startsWith(API_BASE) ? files(c, next) : next()));
    // SPA fallback: any other GET outside the API is a route of the portal.
    root.get('*', (c) => {
      if (c.req.path.startsWith(API_BASE)) return c.notFound();
      c.header('Cache-Control', 'no-cache');
      return c.html(indexHtml);
    });
  }

  return new Promise((resolve) => {
    const server = serve({ fetch: root.fetch, port: options.port, hostname: options.hostname ?? '127.0.0.1' }, (info) => {
      resolve({
        url: `http://${options.hostname === '0.0.0.0' ? 'localhost' : (options.hostname ?? 'localhost')}:${info.port}`,
        db,
        close: () =>
          new Promise<void>((done) => {
            clearInterval(pruning);
            server.close(() => {
              db.close();
              done();
            });
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
  });
}
