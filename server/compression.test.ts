// @vitest-environment node
// Compressed answers: brotli when the request takes it, else gzip, else raw; the portal's text files
// and the API's JSON, never small answers or the xlsx download. Requests go over node:http, which
// (unlike fetch) hands back the bytes as sent, so each test sees the encoding and decodes it itself.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { Hono, type Handler } from 'hono';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding, compressAnswers } from './compression.ts';
import { pagesOf } from '../tests/utils/list-pages.ts';
import { useServedDist } from '../tests/utils/served-dist.ts';
import { jsonListAnswer } from './json-list.ts';
import { startServer, type RunningServer } from './index.ts';
import { headersFileText, policyDirectives, portalHeaderRules } from './security-policy.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed.ts';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A built chunk of some 30 KB: text that compresses well, as JavaScript does. */
const APP_JS = Array.from(
  { length: 600 },
  (_, i) => `export const value${i} = ${JSON.stringify({ id: i, label: `Label ${i % 17}` })};\n`,
).join('');
const SMALL_CSS = 'body{margin:0}\n';
const INDEX_HTML = (title: string) =>
  `<!doctype html><html><head><title>${title}</title><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
/** Not text: a PNG header followed by bytes that would still compress, to prove the type decides. */
const LOGO_PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4096, 7)]);

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent, still encoded. */
  body: Buffer;
}

/** One request over HTTP, its answer's bytes as they came (fetch would decode them). */
function request(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks) }));
        answer.on('error', reject);
      })
      .on('error', reject)
      .end();
  });
}

function decoded(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return zlib.gunzipSync(answer.body);
  if (encoding === undefined) return answer.body;
  throw new Error(`Unexpected encoding ${encoding}`);
}

const served = useServedDist('compression', {
  'index.html': INDEX_HTML('Portal'),
  'assets/app-abc123.js': APP_JS,
  'assets/small-abc123.css': SMALL_CSS,
  'assets/logo-abc123.png': LOGO_PNG,
  // As the build writes it for that page (no inline script or style).
  _headers: headersFileText(portalHeaderRules(policyDirectives())),
});
const { serve } = served;

describe('choosing the encoding from Accept-Encoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['BR;q=1', 'br'],
    ['gzip, deflate', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip;q=1, br;q=0.8', 'gzip'],
    ['br;q=0.5, gzip;q=0.5', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, gzip', 'gzip'],
    ['br;q=0, *', 'gzip'],
  ])('%s: %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });

  it.each([undefined, '', 'identity', 'deflate', 'br;q=0, gzip;q=0', '*;q=0', 'identity, gzip;q=0.5, br;q=0.5'])('%s: none', (header) => {
    expect(chooseEncoding(header)).toBeUndefined();
  });
});

describe("the portal's files", () => {
  const appJs = '/assets/app-abc123.js';

  it('go out in brotli when the request takes it, decoding to the exact file', async () => {
    const { base } = await serve();
    const answer = await request(`${base}${appJs}`, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(APP_JS.length / 4);
    expect(decoded(answer).toString()).toBe(APP_JS);
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it('go out in gzip when the request takes only gzip', async () => {
    const { base } = await serve();
    const answer = await request(`${base}${appJs}`, { 'Accept-Encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(decoded(answer).toString()).toBe(APP_JS);
  });

  it('go out raw when the request refuses both encodings or sends no Accept-Encoding', async () => {
    const { base } = await serve();
    const requests: Record<string, string>[] = [{ 'Accept-Encoding': 'identity' }, { 'Accept-Encoding': 'br;q=0, gzip;q=0' }, {}];
    for (const headers of requests) {
      const answer = await request(`${base}${appJs}`, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(200);
      expect(answer.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(Number(answer.headers['content-length'])).toBe(APP_JS.length);
      expect(answer.body.toString()).toBe(APP_JS);
    }
  });

  it('tell caches that the answer depends on Accept-Encoding, and keep their other headers', async () => {
    const { base } = await serve();
    for (const encoding of ['br', 'gzip', 'identity']) {
      const answer = await request(`${base}${appJs}`, { 'Accept-Encoding': encoding });
      expect(answer.headers.vary, encoding).toBe('Accept-Encoding');
      expect(answer.headers['cache-control'], encoding).toBe(IMMUTABLE);
      expect(answer.headers['content-security-policy'], encoding).toBe(CSP);
      expect(answer.headers['x-content-type-options'], encoding).toBe('nosniff');
      expect(answer.headers['last-modified'], encoding).toBe(fs.statSync(path.join(served.distDir, appJs)).mtime.toUTCString());
    }
  });

  it('leave small files and binary ones raw', async () => {
    const { base } = await serve();
    const css = await request(`${base}/assets/small-abc123.css`, { 'Accept-Encoding': 'br, gzip' });
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.body.toString()).toBe(SMALL_CSS);
    const png = await request(`${base}/assets/logo-abc123.png`, { 'Accept-Encoding': 'br, gzip' });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers.vary).toBeUndefined();
    expect(png.body.equals(LOGO_PNG)).toBe(true);
  });

  it('answer HEAD with the headers of the compressed GET and no body', async () => {
    const { base } = await serve();
    const get = await request(`${base}${appJs}`, { 'Accept-Encoding': 'br' });
    const head = await request(`${base}${appJs}`, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(get.body.length));
    expect(head.headers.vary).toBe('Accept-Encoding');
    expect(head.headers['cache-control']).toBe(IMMUTABLE);
    expect(head.body.length).toBe(0);
  });

  it('answer a Range request with bytes of the raw file', async () => {
    const { base } = await serve();
    const answer = await request(`${base}${appJs}`, { 'Accept-Encoding': 'br, gzip', Range: 'bytes=10-5009' });
    expect(answer.status).toBe(206);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['content-range']).toBe(`bytes 10-5009/${APP_JS.length}`);
    expect(answer.body.toString()).toBe(APP_JS.slice(10, 5010));
  });

  it("compress the portal's page, and compress it anew when dist/ is rebuilt", async () => {
    const { base } = await serve();
    const page = await request(`${base}/reports`, { 'Accept-Encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(decoded(page).toString()).toBe(INDEX_HTML('Portal'));
    const byName = await request(`${base}/index.html`, { 'Accept-Encoding': 'gzip' });
    expect(decoded(byName).toString()).toBe(INDEX_HTML('Portal'));

    const indexPath = path.join(served.distDir, 'index.html');
    try {
      fs.writeFileSync(indexPath, INDEX_HTML('Portal, rebuilt'));
      for (const route of ['/reports', '/index.html']) {
        for (const encoding of ['br', 'gzip']) {
          const rebuilt = await request(`${base}${route}`, { 'Accept-Encoding': encoding });
          expect(rebuilt.headers['content-encoding'], `${route} ${encoding}`).toBe(encoding);
          expect(decoded(rebuilt).toString(), `${route} ${encoding}`).toBe(INDEX_HTML('Portal, rebuilt'));
        }
      }
    } finally {
      fs.writeFileSync(indexPath, INDEX_HTML('Portal'));
    }
  });

  it('still answer 404 for a missing file', async () => {
    const { base } = await serve();
    const answer = await request(`${base}/assets/nope.js`, { 'Accept-Encoding': 'br' });
    expect(answer.status).toBe(404);
    expect(decoded(answer).toString()).not.toContain('<div id="root">');
  });
});

describe("the API's answers", () => {
  const admin = DEMO_ACCOUNTS.find((account) => account.username === 'admin')!;
  let base: string;
  let access: string;
  let demoServer: RunningServer;

  async function post(apiPath: string, body: unknown, token?: string): Promise<{ access: string }> {
    const answer = await fetch(`${base}/api/v2/${apiPath}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    expect(answer.status, apiPath).toBe(200);
    return (await answer.json()) as { access: string };
  }

  const api = (apiPath: string, headers: Record<string, string> = {}, method = 'GET') =>
    request(`${base}/api/v2/${apiPath}`, { Authorization: `Bearer ${access}`, ...headers }, method);

  // Every payment event of the demo data (14 months up to now): some 1.5 MB of JSON.
  const allEvents = `payment_events/?start=${new Date(Date.now() - 700 * 24 * 60 * 60_000).toISOString()}`;

  beforeAll(async () => {
    demoServer = await startServer({
      port: 0,
      databasePath: path.join(served.workDir, 'demo.sqlite'),
      demo: true,
      log: () => {},
    });
    base = demoServer.url.replace('//localhost:', '//127.0.0.1:');
    const partial = await post('token/', { username: admin.username, password: DEMO_PASSWORD });
    const token = await generate({ secret: admin.totpSecret!, epoch: Math.floor(Date.now() / 1000) });
    ({ access } = await post('token/verify/', { token }, partial.access));
    return () => demoServer.close();
  });

  it('compress a JSON list in brotli or gzip, decoding to the exact raw answer', async () => {
    const raw = await api(allEvents, { 'Accept-Encoding': 'identity' });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.body.length).toBeGreaterThan(1_000_000);
    expect((JSON.parse(raw.body.toString()) as unknown[]).length).toBeGreaterThan(1000);
    for (const encoding of ['br', 'gzip']) {
      const answer = await api(allEvents, { 'Accept-Encoding': encoding === 'br' ? 'gzip, deflate, br' : 'gzip, deflate' });
      expect(answer.status, encoding).toBe(200);
      expect(answer.headers['content-encoding'], encoding).toBe(encoding);
      expect(answer.headers['content-type'], encoding).toMatch(/^application\/json/);
      expect(answer.body.length, encoding).toBeLessThan(raw.body.length / 5);
      expect(decoded(answer).equals(raw.body), encoding).toBe(true);
    }
  });

  it('keep no-store and the security headers, and vary on Accept-Encoding', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const answer = await api(allEvents, { 'Accept-Encoding': encoding });
      expect(answer.headers.vary, encoding).toBe('Accept-Encoding');
      expect(answer.headers['cache-control'], encoding).toBe('no-store');
      expect(answer.headers['content-security-policy'], encoding).toBe(CSP);
      expect(answer.headers['x-frame-options'], encoding).toBe('DENY');
    }
  });

  it('answer HEAD with the encoding of GET, no body and no length', async () => {
    const head = await api(allEvents, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBeUndefined();
    expect(head.body.length).toBe(0);
  });

  it('leave small answers and errors raw', async () => {
    const affiliates = await api('affiliates/', { 'Accept-Encoding': 'br, gzip' });
    expect(affiliates.status).toBe(200);
    expect(affiliates.body.length).toBeLessThan(1024);
    expect(affiliates.headers['content-encoding']).toBeUndefined();
    expect(Array.isArray(JSON.parse(affiliates.body.toString()))).toBe(true);
    const error = await api('payment_events/?start=nope', { 'Accept-Encoding': 'br, gzip' });
    expect(error.status).toBe(400);
    expect(error.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(error.body.toString())).toEqual({ start: ['Enter a valid date/time.'] });
  });

  it('send the xlsx report as it is', async () => {
    const reports = JSON.parse((await api('reports/affiliate/')).body.toString()) as { id: number }[];
    const download = await api(`reports/affiliate/${reports[0]!.id}/download/`, { 'Accept-Encoding': 'br, gzip' });
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(download.headers['content-encoding']).toBeUndefined();
    expect(Number(download.headers['content-length'])).toBe(download.body.length);
    // A zip file: PK\x03\x04.
    expect(download.body.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(true);
  });
});

describe('compressAnswers', () => {
  const big = { rows: Array.from({ length: 200 }, (_, id) => ({ id, name: `Row ${id}` })) };

  function appWith(handler: Handler): Hono {
    const app = new Hono();
    app.use(compressAnswers());
    app.get('/', handler);
    return app;
  }

  it('compresses JSON above the threshold', async () => {
    const answer = await appWith((c) => c.json(big)).request('/', { headers: { 'Accept-Encoding': 'br' } });
    expect(answer.headers.get('Content-Encoding')).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(Buffer.from(await answer.arrayBuffer())).toString())).toEqual(big);
  });

  it('leaves answers without a body, already encoded or marked no-transform alone', async () => {
    // Stored, not deflated: above the threshold, as a big encoded answer would be.
    const gzipped = zlib.gzipSync(JSON.stringify(big), { level: 0 });
    const cases: [string, Handler][] = [
      ['204', (c) => c.body(null, 204)],
      ['304', (c) => c.body(null, 304)],
      ['206', (c) => c.json(big, 206, { 'Content-Range': 'bytes 0-99/5000' })],
      ['encoded', (c) => c.body(new Uint8Array(gzipped), 200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })],
      ['no-transform', (c) => c.json(big, 200, { 'Cache-Control': 'no-transform' })],
    ];
    for (const [name, handler] of cases) {
      const answer = await appWith(handler).request('/', { headers: { 'Accept-Encoding': 'br, gzip' } });
      expect(answer.headers.get('Content-Encoding'), name).toBe(name === 'encoded' ? 'gzip' : null);
      if (name === 'encoded') expect(Buffer.from(await answer.arrayBuffer()).equals(gzipped)).toBe(true);
      if (name === 'no-transform' || name === '206') expect(await answer.json()).toEqual(big);
    }
  });
});

describe('compressAnswers, on an answer written as it goes', () => {
  const rows = Array.from({ length: 30_000 }, (_, id) => ({ id, created: '2026-11-01T10:00:00Z', name: `Row ${id}`, amount: `${id}.50` }));

  it('sends compressed bytes of a long list while the rest is still being written', async () => {
    // The handler writes some 1.2 MB, then waits: what it wrote must leave before it goes on.
    let goOn: () => void = () => {};
    const held = new Promise<void>((resolve) => (goOn = resolve));
    const text = JSON.stringify(rows);
    const half = Math.floor(text.length / 2);
    const app = new Hono();
    app.use(compressAnswers());
    app.get('/', () => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode(text.slice(0, half)));
          await held;
          controller.enqueue(new TextEncoder().encode(text.slice(half)));
          controller.close();
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'application/json' } });
    });
    const answer = await app.request('/', { headers: { 'Accept-Encoding': 'br' } });
    expect(answer.headers.get('Content-Encoding')).toBe('br');
    expect(answer.headers.get('Content-Length')).toBeNull();
    const reader = answer.body!.getReader();
    const decompress = zlib.createBrotliDecompress();
    const out: Buffer[] = [];
    decompress.on('data', (chunk: Buffer) => out.push(chunk));
    // The first compressed bytes come while the handler still waits.
    const first = await reader.read();
    expect(first.done).toBe(false);
    decompress.write(first.value);
    goOn();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) decompress.write(chunk.value);
    await new Promise((resolve) => decompress.end(resolve));
    expect(Buffer.concat(out).toString()).toBe(text);
  });

  it('sends a short list written as it goes raw, and a long one whole once decoded', async () => {
    const app = new Hono();
    app.use(compressAnswers());
    app.get('/short', () => jsonListAnswer(pagesOf(rows.slice(0, 3)), (row) => JSON.stringify(row)));
    app.get('/long', () => jsonListAnswer(pagesOf(rows), (row) => JSON.stringify(row)));
    const short = await app.request('/short', { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(short.headers.get('Content-Encoding')).toBeNull();
    expect(await short.json()).toEqual(rows.slice(0, 3));
    const long = await app.request('/long', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(long.headers.get('Content-Encoding')).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(Buffer.from(await long.arrayBuffer())).toString())).toEqual(rows);
  });
});
