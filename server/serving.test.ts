// @vitest-environment node
// What startServer serves besides the API: the built portal's files (a missing file is a 404, the
// SPA fallback is for page routes only), the e-mail outbox (demo mode, on a loopback address only)
// and the security headers on every answer; the signing key it is given; and how long it waits for
// a slow client's request. Each test runs a real server on a free port against a
// small dist/ folder of its own.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { jwtVerify } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from './db.ts';
import { removeDemo } from './demo-data.ts';
import { isLoopbackAuthority, isLoopbackHost } from './loopback.ts';
import { useServedDist } from '../tests/utils/served-dist.ts';
import { headersFileText, policyDirectives, portalHeaderRules } from './security-policy.ts';
import { DEMO_PASSWORD } from './seed.ts';

const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>';
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const CSP_WITH_TAG_MANAGER =
  "default-src 'self'; script-src 'self' https://www.googletagmanager.com; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const DIST_FILES = {
  'index.html': INDEX_HTML,
  'assets/app-abc123.js': 'console.log("portal");\n',
  'favicon.ico': 'icon',
};
// The headers file as the build writes it for that page (no inline script or style).
const served = useServedDist('serving', { ...DIST_FILES, _headers: headersFileText(portalHeaderRules(policyDirectives())) });
const { serve } = served;
const servedWithTagManager = useServedDist('serving-gtm', {
  ...DIST_FILES,
  _headers: headersFileText(portalHeaderRules(policyDirectives({ tagManager: true }))),
});

describe('static files and the SPA fallback', () => {
  it('serves the built files and answers every page route with index.html', async () => {
    const { base } = await serve();
    const asset = await fetch(`${base}/assets/app-abc123.js`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toContain('portal');
    expect((await fetch(`${base}/favicon.ico`)).status).toBe(200);
    for (const route of [
      '/',
      '/login',
      '/reports',
      '/affiliate/AFF-100',
      '/invite/3b9f6c2e-8d41-4a7b-9e05-1c6d2f8a7b40',
      '/no/such/page',
    ]) {
      const page = await fetch(`${base}${route}`);
      expect(page.status, route).toBe(200);
      expect(page.headers.get('content-type'), route).toMatch(/^text\/html/);
      expect(await page.text(), route).toBe(INDEX_HTML);
    }
  });

  it('answers 404, not the portal page, for a missing file', async () => {
    const { base } = await serve();
    for (const missing of [
      '/assets/nope.js',
      '/assets/nope',
      '/assets/deep/nope.css',
      '/.env',
      '/package.json',
      '/bundle-report.json',
      '/nope.txt',
      '/reports/nope.png',
      '/.git/HEAD',
      '/__dev/nope',
    ]) {
      const answer = await fetch(`${base}${missing}`);
      expect(answer.status, missing).toBe(404);
      expect(await answer.text(), missing).not.toContain('<div id="root">');
    }
  });

  it('answers 404 for an unknown API path, never the portal page', async () => {
    const { base } = await serve();
    for (const missing of ['/api/v2/nope/', '/api/v1/affiliates/', '/api/']) {
      const answer = await fetch(`${base}${missing}`);
      expect(answer.status, missing).toBe(404);
      expect(await answer.text(), missing).not.toContain('<div id="root">');
    }
  });
});

describe('the e-mail outbox', () => {
  it('tells loopback hosts from the others', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '', '10.0.0.5', '192.168.1.20', '128.0.0.1', 'example.com', 'localhost.example.com', '::2']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it('tells Host headers that name a loopback host, with any port, from the others', () => {
    for (const host of ['localhost', 'LOCALHOST:5173', '127.0.0.1:8080', '[::1]:8080', '[::1]']) {
      expect(isLoopbackAuthority(host), host).toBe(true);
    }
    // User info or a path cannot pass another name off as this machine's. 'localhost.' (the
    // same name, fully qualified) is refused too: when in doubt, the outbox stays closed.
    for (const host of [undefined, '', 'localhost.', 'evil.example', 'localhost@evil.example', 'evil.example/@localhost', '::1', 'a b']) {
      expect(isLoopbackAuthority(host), host).toBe(false);
    }
  });

  it('is listed in demo mode on a loopback address', async () => {
    const { base, server } = await serve({ demo: true, hostname: '127.0.0.1' });
    const answer = await fetch(`${base}/__dev/outbox`);
    expect(answer.status).toBe(200);
    expect(server.outbox).toBe(true);
    expect(Array.isArray(await answer.json())).toBe(true);
  });

  it('is not listed for a request that names another host (a page elsewhere, rebound to this address)', async () => {
    const { base } = await serve({ demo: true, hostname: '127.0.0.1' });
    const withHost = (host: string) =>
      new Promise<number>((resolve, reject) => {
        http
          .get(`${base}/__dev/outbox`, { headers: { Host: host } }, (answer) => {
            answer.resume();
            resolve(answer.statusCode ?? 0);
          })
          .on('error', reject);
      });
    expect(await withHost('attacker.example')).toBe(404);
    expect(await withHost(`attacker.example:${new URL(base).port}`)).toBe(404);
    expect(await withHost(`localhost:${new URL(base).port}`)).toBe(200);
    expect(await withHost(`[::1]:${new URL(base).port}`)).toBe(200);
  });

  it('is listed on the IPv6 loopback too, at a URL that names it', async () => {
    const { base, server } = await serve({ demo: true, hostname: '::1' });
    expect(base).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect((await fetch(`${base}/__dev/outbox`)).status).toBe(200);
    expect(server.outbox).toBe(true);
  });

  it('is not listed on a public address, even in demo mode', async () => {
    const { base, server } = await serve({ demo: true, hostname: '0.0.0.0' });
    const answer = await fetch(`${base}/__dev/outbox`);
    expect(answer.status).toBe(404);
    expect(server.outbox).toBe(false);
    // The portal itself is served there.
    expect((await fetch(`${base}/login`)).status).toBe(200);
  });
});

describe('security headers', () => {
  /** One answer of each kind: the portal page, a built file, an API success and API errors. */
  async function answers(base: string): Promise<Record<string, Response>> {
    const invite = await fetch(`${base}/api/v2/affiliates/invites/nope/`);
    return {
      page: await fetch(`${base}/`),
      route: await fetch(`${base}/reports`),
      asset: await fetch(`${base}/assets/app-abc123.js`),
      missingAsset: await fetch(`${base}/assets/nope.js`),
      apiNotFound: invite,
      apiUnauthorized: await fetch(`${base}/api/v2/affiliates/`),
      apiBadRequest: await fetch(`${base}/api/v2/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      apiWrongMethod: await fetch(`${base}/api/v2/affiliates/`, { method: 'DELETE' }),
    };
  }

  it('sends the content security policy and the other headers on every answer', async () => {
    const { base } = await serve();
    for (const [kind, answer] of Object.entries(await answers(base))) {
      expect(answer.headers.get('content-security-policy'), kind).toBe(CSP);
      expect(answer.headers.get('x-content-type-options'), kind).toBe('nosniff');
      expect(answer.headers.get('referrer-policy'), kind).toBe('strict-origin-when-cross-origin');
      expect(answer.headers.get('x-frame-options'), kind).toBe('DENY');
      expect(answer.headers.get('strict-transport-security'), kind).toBeNull();
    }
  });

  it('allows the tag manager script when the portal was built with a tag manager', async () => {
    const { base } = await servedWithTagManager.serve();
    for (const [kind, answer] of Object.entries(await answers(base))) {
      expect(answer.headers.get('content-security-policy'), kind).toBe(CSP_WITH_TAG_MANAGER);
    }
  });

  it('sends the other security headers on every answer, and no X-Powered-By', async () => {
    const { base } = await serve();
    for (const [kind, answer] of Object.entries(await answers(base))) {
      expect(answer.headers.get('cross-origin-opener-policy'), kind).toBe('same-origin');
      expect(answer.headers.get('cross-origin-resource-policy'), kind).toBe('same-origin');
      expect(answer.headers.get('origin-agent-cluster'), kind).toBe('?1');
      expect(answer.headers.get('x-dns-prefetch-control'), kind).toBe('off');
      expect(answer.headers.get('x-download-options'), kind).toBe('noopen');
      expect(answer.headers.get('x-permitted-cross-domain-policies'), kind).toBe('none');
      expect(answer.headers.get('x-xss-protection'), kind).toBe('0');
      expect(answer.headers.get('x-powered-by'), kind).toBeNull();
    }
  });

  it('refuses to start on a built portal without the headers file the build writes', async () => {
    const distDir = path.join(served.workDir, 'dist-without-headers');
    fs.mkdirSync(distDir, { recursive: true });
    fs.writeFileSync(path.join(distDir, 'index.html'), INDEX_HTML);
    await expect(serve({ distDir })).rejects.toThrow('_headers is missing: build the portal (npm run build)');
    fs.writeFileSync(path.join(distDir, '_headers'), '/assets/*\n  Cache-Control: no-cache\n');
    await expect(serve({ distDir })).rejects.toThrow('has no rule for /*: rebuild the portal (npm run build)');
  });

  it('sends Strict-Transport-Security only when told to', async () => {
    const { base } = await serve({ hsts: true });
    for (const [kind, answer] of Object.entries(await answers(base))) {
      expect(answer.headers.get('strict-transport-security'), kind).toBe('max-age=31536000; includeSubDomains');
    }
  });

  it('keeps API answers, errors included, and the outbox out of every cache', async () => {
    const { base } = await serve({ demo: true });
    const all = await answers(base);
    expect(all.apiNotFound!.status).toBe(404);
    expect(all.apiUnauthorized!.status).toBe(401);
    expect(all.apiBadRequest!.status).toBe(400);
    expect(all.apiWrongMethod!.status).toBe(405);
    for (const kind of ['apiNotFound', 'apiUnauthorized', 'apiBadRequest', 'apiWrongMethod']) {
      expect(all[kind]!.headers.get('cache-control'), kind).toBe('no-store');
    }
    const signIn = await fetch(`${base}/api/v2/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'berlin', password: 'Portal-demo-2026' }),
    });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${base}/api/v1/affiliates/`)).headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${base}/__dev/outbox`)).headers.get('cache-control')).toBe('no-store');
    // The portal's files keep their own rules: hashed assets for a year, the page revalidated.
    expect(all.asset!.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(all.page!.headers.get('cache-control')).toBe('no-cache');
    expect(all.route!.headers.get('cache-control')).toBe('no-cache');
    const byName = await fetch(`${base}/index.html`);
    expect(await byName.text()).toBe(INDEX_HTML);
    expect(byName.headers.get('cache-control')).toBe('no-cache');
  });
});

describe('the signing key', () => {
  it('signs with the key it is given, and refuses one under 32 bytes', async () => {
    await expect(serve({ jwtSecret: 'k'.repeat(31) })).rejects.toThrow('The signing key must be at least 32 bytes');
    const key = 'k'.repeat(32);
    const { base } = await serve({ jwtSecret: key, demo: true });
    const answer = await fetch(`${base}/api/v2/token/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'globetrotter', password: DEMO_PASSWORD }),
    });
    const { access } = (await answer.json()) as { access: string };
    await expect(jwtVerify(access, new TextEncoder().encode(key))).resolves.toBeTruthy();
  });

  it('is never kept in the database outside the demo: one a demo kept there is deleted', async () => {
    const databasePath = path.join(served.workDir, 'kept-key.sqlite');
    const keptKey = (db: Db) => db.prepare("SELECT value FROM meta WHERE key = 'jwt_secret'").get();
    const demo = await serve({ databasePath, demo: true });
    expect(keptKey(demo.server.db)).toBeDefined();
    await demo.server.close();
    // As an operator would before DEMO=0: the demo's accounts go, its kept key stays until the start.
    const db = openDatabase(databasePath);
    removeDemo(db);
    expect(keptKey(db)).toBeDefined();
    db.close();
    const given = await serve({ databasePath, jwtSecret: 'k'.repeat(32) });
    expect(keptKey(given.server.db)).toBeUndefined();
    await given.server.close();
    // Without a key (in process only: npm start refuses to), none is made and kept either.
    const none = await serve({ databasePath });
    expect(keptKey(none.server.db)).toBeUndefined();
  });
});

/** Sends `text` on a connection of its own and reads until the server closes it: what came back, and after how long. */
function sendAndWait(base: string, text: string): Promise<{ answer: string; ms: number }> {
  const { hostname, port } = new URL(base);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer, ms: Date.now() - started }));
    // Held open longer than any timeout under test: the server did not let go.
    setTimeout(() => socket.destroy(new Error('still open after 5 s')), 5_000).unref();
  });
}

describe('slow clients', () => {
  it('are answered 408 and let go when the headers, or the whole request, take too long, with no server error logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { base } = await serve({ slowClientTimeouts: { headersMs: 400, requestMs: 2_400 } });
    // Let go for its headers, long before the whole request's time is up.
    const headers = await sendAndWait(base, 'GET /api/v2/affiliates/ HTTP/1.1\r\nHost: localhost\r\n');
    expect(headers.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(headers.ms).toBeLessThan(2_000);
    const body = await sendAndWait(
      base,
      'POST /api/v2/token/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"username"',
    );
    expect(body.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(body.ms).toBeGreaterThanOrEqual(2_400 - 100);
    // A client that sends its request at once is served as ever.
    expect((await fetch(`${base}/favicon.ico`)).status).toBe(200);
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });
});
