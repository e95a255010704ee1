// The built dist/ carries its own protections. Read from the build: the page's <meta> policy
// allows each of its inline scripts and styles by hash ('unsafe-inline' never), dist/_headers has
// the full policy, the other security headers and the caching rules, and the reference server
// sends exactly those. Served by a plain file server that adds no header but Content-Type, as any
// static host might: an inline script injected into the page does not run, and the portal itself
// works there (sign-in, the dashboard's figures) with no Content Security Policy violation.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHeadersFile } from '../../server/security-policy.ts';
import { pendingCspViolations, takeCspViolations } from './csp.ts';
import { setUpPortal } from './harness.ts';
import { DIST, type Portal } from './portal.ts';
import { DESKTOP, dashboardHeading, expectVisible, poll, signIn } from './session.ts';

const e2e = setUpPortal();

const page = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
const headersFile = parseHeadersFile(fs.readFileSync(path.join(DIST, '_headers'), 'utf8'));
const metaPolicy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)?.[1] ?? '';
const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const directive = (policy: string, name: string) =>
  policy
    .split(/;\s*/)
    .find((text) => text.startsWith(`${name} `))
    ?.split(' ')
    .slice(1) ?? [];

describe('the protections in the build', () => {
  it("puts the policy in the page, before its inline code, with a hash for each inline script and style and no 'unsafe-inline'", () => {
    expect(metaPolicy).not.toBe('');
    expect(page.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(page.search(/<(script|style)[\s>]/));
    const scripts = [...page.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)].filter(
      ([, attributes = '']) => !/\ssrc=/.test(attributes),
    );
    const styles = [...page.matchAll(/<style(\s[^>]*)?>([\s\S]*?)<\/style>/g)];
    // The prerendered login's boot script and the app's stylesheet, at least.
    expect(scripts.length).toBeGreaterThan(0);
    expect(styles.length).toBeGreaterThan(0);
    for (const [, , body = ''] of scripts) expect(directive(metaPolicy, 'script-src')).toContain(hashOf(body));
    for (const [, , body = ''] of styles) expect(directive(metaPolicy, 'style-src')).toContain(hashOf(body));
    expect(metaPolicy).not.toContain('unsafe-inline');
  });

  it('writes _headers with the full policy (frame-ancestors too), the other security headers and the caching rules', () => {
    const every = Object.fromEntries(headersFile.get('/*') ?? []);
    expect(every['Content-Security-Policy']).toBe(`${metaPolicy}; frame-ancestors 'none'`);
    expect(every).toMatchObject({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'X-Frame-Options': 'DENY',
      'Cross-Origin-Opener-Policy': 'same-origin',
    });
    expect(headersFile.get('/assets/*')).toEqual([['Cache-Control', 'public, max-age=31536000, immutable']]);
    expect(headersFile.get('/')).toEqual([['Cache-Control', 'no-cache']]);
  });

  it('is what the reference server sends, on the page, an asset and an API answer', async () => {
    const entry = /\/assets\/index-[^"/]+\.js/.exec(page)?.[0];
    const base = e2e.portal.url;
    const answers = {
      page: await fetch(`${base}/affiliate/AFF-100`),
      asset: await fetch(`${base}${entry}`),
      api: await fetch(`${base}/api/v2/affiliates/`),
    };
    for (const [kind, answer] of Object.entries(answers)) {
      for (const [name, value] of headersFile.get('/*')!) expect(answer.headers.get(name), `${kind}: ${name}`).toBe(value);
    }
    expect(answers.asset.headers.get('cache-control')).toBe(headersFile.get('/assets/*')![0]![1]);
    expect(answers.page.headers.get('cache-control')).toBe(headersFile.get('/')![0]![1]);
  });
});

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
};

/**
 * A file server over dist/ that sends no header but Content-Type (module scripts need theirs): a
 * file by its path, the page for any other path; the API's requests go on to the portal as they are.
 */
function startPlainHost(apiUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const api = new URL(apiUrl);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host');
    if (url.pathname.startsWith('/api/')) {
      const forwarded = http.request(
        { hostname: api.hostname, port: api.port, path: request.url, method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on('error', () => response.destroy());
      request.pipe(forwarded);
      return;
    }
    const file = path.join(DIST, path.normalize(decodeURIComponent(url.pathname)));
    const found = file.startsWith(DIST) && fs.existsSync(file) && fs.statSync(file).isFile() ? file : path.join(DIST, 'index.html');
    response.writeHead(200, { 'Content-Type': TYPES[path.extname(found)] ?? 'application/octet-stream' });
    response.end(fs.readFileSync(found));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as import('node:net').AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    }),
  );
}

describe('dist/ on a host that adds no headers', () => {
  let host: Awaited<ReturnType<typeof startPlainHost>>;
  /** The portal as reached through that host. */
  let hosted: Portal;
  beforeAll(async () => {
    host = await startPlainHost(e2e.portal.url.replace('//localhost:', '//127.0.0.1:'));
    hosted = { ...e2e.portal, url: host.url };
  });
  afterAll(async () => {
    await host?.close();
  });

  it('refuses an inline script injected into the sign-in page, by the policy in the page alone', async () => {
    const tab = e2e.track(await (await e2e.browser.newContext(DESKTOP)).newPage());
    // The markup as an attacker who could write into it would have it.
    await tab.route(`${host.url}/login`, async (route) => {
      const answer = await route.fetch();
      const injected = (await answer.text()).replace('</body>', '<script>window.__injectedRan = true;</script></body>');
      await route.fulfill({ response: answer, body: injected });
    });
    const served = await tab.goto(`${host.url}/login`);
    expect(served!.headers()['content-security-policy']).toBeUndefined();
    await tab.getByRole('heading', { name: 'Affiliate Login' }).waitFor();
    // The app started (its own script, allowed), the injected one did not run.
    await tab.getByLabel('Email or Username').fill('globetrotter');
    const ran = await tab.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__addedRan = true;';
      document.head.append(script);
      const flags = window as unknown as { __injectedRan?: boolean; __addedRan?: boolean };
      return { injected: flags.__injectedRan ?? false, added: flags.__addedRan ?? false };
    });
    expect(ran).toEqual({ injected: false, added: false });
    // Each reported as blocked by the page's policy: its securitypolicyviolation event names the directive.
    await poll('both inline scripts reported as blocked', () => {
      const blocked = pendingCspViolations().filter((violation) => /violation: script-src/.test(violation.text));
      return blocked.length >= 2 ? blocked : undefined;
    });
    // Taken: these two (and Chromium's own messages about them) were provoked on purpose.
    takeCspViolations();
  });

  it('serves a portal that works: a user signs in with TOTP and sees the dashboard figures, with no CSP violation', async () => {
    const tab = e2e.track(await (await e2e.browser.newContext(DESKTOP)).newPage());
    await signIn(tab, hosted, 'globetrotter');
    await expectVisible(tab, 'dashboard', dashboardHeading(tab), 'the dashboard heading', 15_000);
    const figures = tab.getByRole('region', { name: 'Summary' }).locator('dd');
    await expectVisible(tab, 'dashboard', figures.first(), 'the stat boxes of the summary grid', 15_000);
    expect(await figures.allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/\d/)]));
  });
});
