// @vitest-environment node
// The build's page policy (build/page-policy.ts) on a small page built by Vite for real: the
// policy in the page's <meta> tag with the hash of each inline script and style, dist/_headers with
// the full policy, the other security headers and the caching rules, gzip twins of the text files,
// and the reference server sending exactly what the build wrote.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../server/index.ts';
import { parseHeadersFile } from '../server/security-policy.ts';
import { configuredPolicy, inlineScriptHashes, inlineStyleHashes, pagePolicy } from './page-policy.ts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const BOOT = 'document.documentElement.setAttribute("data-login-hidden","")';
const STYLES = '.app{display:flex}h1{margin:0}';

describe('inlineScriptHashes', () => {
  it('hashes the text of each inline script, exactly as written', () => {
    const html = `<head><script>${BOOT}</script><script type="module" crossorigin src="/assets/index-1.js"></script></head><body><script>\n  x()\n</script></body>`;
    expect(inlineScriptHashes(html)).toEqual([sha256(BOOT), sha256('\n  x()\n')]);
  });

  it('leaves out scripts loaded from a file, and empty ones', () => {
    expect(inlineScriptHashes('<script src="/a.js"></script><script type="module" src="/b.js"></script><script></script>')).toEqual([]);
  });
});

describe('inlineStyleHashes', () => {
  it('hashes the text of each <style>, exactly as written, and leaves out empty ones and linked stylesheets', () => {
    const html = `<head><style>${STYLES}</style><link rel="stylesheet" href="/assets/index-1.css"><style></style></head><body><style media="print">\n  a{}\n</style></body>`;
    expect(inlineStyleHashes(html)).toEqual([sha256(STYLES), sha256('\n  a{}\n')]);
  });
});

describe('configuredPolicy', () => {
  it('allows the tag manager when the build has VITE_GTM_ID, and an API on another origin for its calls', () => {
    expect(configuredPolicy({ gtmId: undefined, apiBaseUrl: '/api/v2/' })).toEqual({ tagManager: false, apiOrigin: undefined });
    expect(configuredPolicy({ gtmId: 'GTM-ABC123', apiBaseUrl: 'https://api.example.com/v2/' })).toEqual({
      tagManager: true,
      apiOrigin: 'https://api.example.com',
    });
  });
});

/** Stands in for build/prerender-login.ts: a normal plugin that writes an inline script and style into the page late. */
const lateInlineCode: Plugin = {
  name: 'late-inline-code',
  transformIndexHtml: {
    order: 'post',
    handler: (html) => html.replace('</title>', () => `</title>\n<script>${BOOT}</script><style>${STYLES}</style>`),
  },
};

describe('a page built with the page policy', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-page-policy-'));
  const outDir = path.join(workDir, 'dist');
  const read = (file: string) => fs.readFileSync(path.join(outDir, file), 'utf8');
  afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

  beforeAll(async () => {
    fs.writeFileSync(
      path.join(workDir, 'index.html'),
      '<!doctype html><html><head><meta charset="UTF-8" /><title>Portal</title></head><body><div id="root"></div><script type="module" src="/main.js"></script></body></html>',
    );
    // Big enough to be worth a gzip twin.
    fs.writeFileSync(path.join(workDir, 'main.js'), `document.title = ${JSON.stringify('Portal '.repeat(400))};\n`);
    await build({
      configFile: false,
      root: workDir,
      logLevel: 'silent',
      plugins: [pagePolicy({ gtmId: 'GTM-ABC123', apiBaseUrl: '/api/v2/' }), lateInlineCode],
      build: { outDir, emptyOutDir: true },
    });
  }, 60_000);

  it("carries its policy in a <meta> tag before any inline code, hashing each inline script and style ('unsafe-inline' never)", () => {
    const html = read('index.html');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
    expect(meta).not.toBeNull();
    expect(html.indexOf(meta![0])).toBeLessThan(html.indexOf('<script'));
    const policy = meta![1]!;
    expect(policy).toBe(
      `default-src 'self'; script-src 'self' ${sha256(BOOT)} https://www.googletagmanager.com; style-src 'self' ${sha256(STYLES)}; object-src 'none'; base-uri 'none'; form-action 'self'`,
    );
    expect(policy).not.toContain('unsafe-inline');
  });

  it('writes _headers with the full policy, the other security headers and the caching rules', () => {
    const rules = parseHeadersFile(read('_headers'));
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(read('index.html'))![1];
    expect(Object.fromEntries(rules.get('/*') ?? [])).toEqual({
      'Content-Security-Policy': `${meta}; frame-ancestors 'none'`,
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Origin-Agent-Cluster': '?1',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'X-Content-Type-Options': 'nosniff',
      'X-DNS-Prefetch-Control': 'off',
      'X-Download-Options': 'noopen',
      'X-Frame-Options': 'DENY',
      'X-Permitted-Cross-Domain-Policies': 'none',
      'X-XSS-Protection': '0',
    });
    expect(rules.get('/assets/*')).toEqual([['Cache-Control', 'public, max-age=31536000, immutable']]);
    expect(rules.get('/')).toEqual([['Cache-Control', 'no-cache']]);
    expect(rules.get('/index.html')).toEqual([['Cache-Control', 'no-cache']]);
  });

  it('writes a gzip twin of each text file worth compressing', () => {
    const [script] = fs.readdirSync(path.join(outDir, 'assets')).filter((name) => name.endsWith('.js'));
    const twin = path.join(outDir, 'assets', `${script}.gz`);
    expect(gunzipSync(fs.readFileSync(twin)).toString('utf8')).toBe(read(`assets/${script}`));
    expect(fs.existsSync(path.join(outDir, '_headers.gz'))).toBe(false);
  });

  it('is served by the reference server with the headers the build wrote, on the page, its files and the API', async () => {
    const server = await startServer({
      port: 0,
      databasePath: path.join(workDir, 'portal.sqlite'),
      distDir: outDir,
      demo: false,
      log: () => {},
    });
    try {
      const base = server.url.replace('//localhost:', '//127.0.0.1:');
      const rules = parseHeadersFile(read('_headers'));
      const [script] = fs.readdirSync(path.join(outDir, 'assets')).filter((name) => name.endsWith('.js'));
      const answers = {
        page: await fetch(`${base}/reports`),
        asset: await fetch(`${base}/assets/${script}`),
        api: await fetch(`${base}/api/v2/affiliates/`),
      };
      for (const [kind, answer] of Object.entries(answers)) {
        for (const [name, value] of rules.get('/*')!) expect(answer.headers.get(name), `${kind}: ${name}`).toBe(value);
      }
      expect(answers.asset.headers.get('cache-control')).toBe(rules.get('/assets/*')![0]![1]);
      expect(answers.page.headers.get('cache-control')).toBe(rules.get('/')![0]![1]);
    } finally {
      await server.close();
    }
  });
});
