// The portal behind nginx, configured as deploy/ says (tests/e2e/nginx.ts): in Chromium through
// nginx, a user signs in with TOTP, sees the dashboard's figures and downloads a report, with no
// Content Security Policy violation; the page, an asset and API answers carry the same headers as
// from the reference server itself; missing files and dot files are 404s, deep routes the page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpPortal } from './harness.ts';
import { startNginx, type RunningNginx } from './nginx.ts';
import { DIST, type Portal } from './portal.ts';
import { DESKTOP, dashboardHeading, expectVisible, signIn, step } from './session.ts';

const e2e = setUpPortal();
let nginx: RunningNginx;
/** The portal as reached through nginx. */
let proxied: Portal;

beforeAll(async () => {
  nginx = await startNginx(DIST, e2e.portal.url.replace('//localhost:', '//127.0.0.1:'));
  proxied = { ...e2e.portal, url: nginx.url };
});
afterAll(async () => {
  await nginx?.close();
});

/** Headers that say how an answer travelled or which program sent it, not what the portal asks of browsers. */
const TRANSPORT = new Set([
  'date',
  'server',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'etag',
  'last-modified',
  'accept-ranges',
  // Each server's own table of file types (text/javascript or application/javascript).
  'content-type',
]);

/** Headers whose value is each request's own: present alike, compared apart. */
const PER_REQUEST = new Set(['x-request-id']);

const headersOf = (answer: Response): Record<string, string | boolean> =>
  Object.fromEntries(
    [...answer.headers]
      .filter(([name]) => !TRANSPORT.has(name))
      .map(([name, value]): [string, string | boolean] => [name, PER_REQUEST.has(name) ? /^[\w-]{16,}$/.test(value) : value])
      .sort(([a], [b]) => a.localeCompare(b)),
  );

const entryScript = () => /\/assets\/index-[^"/]+\.js/.exec(fs.readFileSync(path.join(DIST, 'index.html'), 'utf8'))?.[0] ?? '';

describe('nginx in front of the portal', () => {
  it('answers the page for routes, deep ones too, and 404 for a missing asset, a dot file and a missing file', async () => {
    for (const route of ['/', '/login', '/reports', '/affiliate/AFF-100', '/invite/3b9f6c2e-8d41-4a7b-9e05-1c6d2f8a7b40']) {
      const answer = await fetch(`${nginx.url}${route}`);
      expect(answer.status, route).toBe(200);
      expect(await answer.text(), route).toContain('<div id="root">');
    }
    for (const missing of [
      '/assets/x.js',
      '/assets/deep/nope.css',
      '/assets/.hidden',
      '/.env',
      '/.git/HEAD',
      '/nope.txt',
      '/__dev/outbox',
    ]) {
      const answer = await fetch(`${nginx.url}${missing}`);
      expect(answer.status, missing).toBe(404);
      expect(await answer.text(), missing).not.toContain('<div id="root">');
    }
    expect((await fetch(`${nginx.url}${entryScript()}`)).status).toBe(200);
  });

  it('sends the headers the reference server sends, one of each, on the page, an asset and API answers', async () => {
    const script = entryScript();
    expect(script).not.toBe('');
    const requests: [string, RequestInit][] = [
      ['/login', {}],
      ['/affiliate/AFF-100', {}],
      ['/index.html', {}],
      [script, {}],
      ['/api/v2/affiliates/', {}],
      [
        '/api/v2/token/',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":"globetrotter","password":"no"}' },
      ],
    ];
    const reference = e2e.portal.url.replace('//localhost:', '//127.0.0.1:');
    for (const [route, init] of requests) {
      const ask = (base: string) => fetch(`${base}${route}`, { ...init, headers: { ...init.headers, 'accept-encoding': 'gzip' } });
      const [direct, through] = [await ask(reference), await ask(nginx.url)];
      expect(through.status, route).toBe(direct.status);
      expect(headersOf(through), route).toEqual(headersOf(direct));
      expect(through.headers.get('content-security-policy'), route).toContain("frame-ancestors 'none'");
    }
    // Other files too (too small for a gzip twin, so sent as they are, without Vary).
    const favicon = await fetch(`${nginx.url}/favicon.ico`);
    expect(favicon.status).toBe(200);
    for (const name of [
      'content-security-policy',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-resource-policy',
    ])
      expect(favicon.headers.get(name), name).toBe((await fetch(`${reference}/favicon.ico`)).headers.get(name));
  });

  it('sends Strict-Transport-Security only with PORTAL_HSTS=1, on the page, files and API answers', async () => {
    const reference = e2e.portal.url.replace('//localhost:', '//127.0.0.1:');
    for (const route of ['/login', '/api/v2/affiliates/']) {
      expect((await fetch(`${nginx.url}${route}`)).headers.get('strict-transport-security'), route).toBeNull();
    }
    const behindTls = await startNginx(DIST, reference, { hsts: true });
    try {
      for (const route of ['/login', '/assets/x.js', '/api/v2/affiliates/']) {
        const answer = await fetch(`${behindTls.url}${route}`);
        expect(answer.headers.get('strict-transport-security'), route).toBe('max-age=31536000; includeSubDomains');
      }
    } finally {
      await behindTls.close();
    }
  });

  it('lets a user sign in with TOTP, see the dashboard figures and download a report, with no CSP violation', async () => {
    const page = e2e.track(await (await e2e.browser.newContext({ ...DESKTOP, acceptDownloads: true })).newPage());
    await signIn(page, proxied, 'globetrotter');
    await expectVisible(page, 'dashboard', dashboardHeading(page), 'the dashboard heading', 15_000);
    const figures = page.getByRole('region', { name: 'Summary' }).locator('dd');
    await expectVisible(page, 'dashboard', figures.first(), 'the stat boxes of the summary grid', 15_000);
    await step(page, 'dashboard', 'a figure in every stat box', async () => {
      const values = await figures.allTextContents();
      expect(values.length).toBeGreaterThan(1);
      for (const value of values) expect(value).toMatch(/\d/);
    });

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reports' }).click();
    const download = page.getByRole('button', { name: 'Download Report' }).first();
    await expectVisible(page, 'reports', download, "a 'Download Report' button", 15_000);
    const [file] = await step(page, 'reports', "a download after 'Download Report'", () =>
      Promise.all([page.waitForEvent('download', { timeout: 15_000 }), download.click()]),
    );
    expect(file.suggestedFilename()).toMatch(/^report-\d+-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'portal-nginx-download-')), file.suggestedFilename());
    await file.saveAs(saved);
    // An .xlsx file is a zip archive.
    expect(fs.readFileSync(saved).subarray(0, 2).toString('latin1')).toBe('PK');
    fs.rmSync(path.dirname(saved), { recursive: true, force: true });
  });
});
