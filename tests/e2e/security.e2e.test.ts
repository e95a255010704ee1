// The security headers as the browser receives them from the reference server (the portal's page,
// its script and stylesheet, an API answer), and the Content Security Policy watch that every
// other e2e test relies on: a violation on any page opened by the suite's browser is reported.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pendingCspViolations, takeCspViolations } from './csp.ts';
import { setUpPortal } from './harness.ts';
import { DIST } from './portal.ts';
import { DESKTOP, poll } from './session.ts';

// The built page's one inline script and one stylesheet (the prerendered login form's) are allowed by their hashes.
const builtPage = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const inlineScriptHash = hashOf(/<script>([\s\S]*?)<\/script>/.exec(builtPage)?.[1] ?? '');
const inlineStyleHash = hashOf(/<style>([\s\S]*?)<\/style>/.exec(builtPage)?.[1] ?? '');
const CSP = `default-src 'self'; script-src 'self' ${inlineScriptHash}; style-src 'self' ${inlineStyleHash}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;

const e2e = setUpPortal();

function expectSecurityHeaders(response: Response, what: string): Record<string, string> {
  const headers = response.headers();
  expect(headers['content-security-policy'], what).toBe(CSP);
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options'], what).toBe('DENY');
  // Only with HSTS=1, which the suite's plain-HTTP server does not set.
  expect(headers['strict-transport-security'], what).toBeUndefined();
  return headers;
}

describe('security headers', () => {
  it('come with the portal page, its script and stylesheet, and API answers (kept out of caches)', async () => {
    const page = e2e.track(await (await e2e.browser.newContext(DESKTOP)).newPage());
    const responses: Response[] = [];
    page.on('response', (response) => responses.push(response));
    // The heading is in the page itself (prerendered): the entry may come after it.
    const isScript = (response: Response) => /\/assets\/index-[^/]+\.js$/.test(response.url());
    const isStylesheet = (response: Response) => /\/assets\/[^/]+\.css$/.test(response.url());
    const loaded = page.waitForResponse(isScript);
    const document = await page.goto(`${e2e.portal.url}/login`);
    await page.getByRole('heading', { name: 'Affiliate Login' }).waitFor();
    await loaded;
    expectSecurityHeaders(document!, 'the portal page');
    // The page's stylesheet is written into it; its file is still served, as lazy screens' are.
    const stylesheetUrl = await page.locator('link[rel="stylesheet"][disabled]').getAttribute('href');
    await page.evaluate(async (url) => (await fetch(url)).text(), stylesheetUrl!);

    const script = responses.find(isScript);
    const stylesheet = responses.find(isStylesheet);
    expect(script, 'the entry script').toBeDefined();
    expect(stylesheet, 'a stylesheet').toBeDefined();
    expect(expectSecurityHeaders(script!, 'the entry script')['cache-control']).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(stylesheet!, 'the stylesheet');

    // A wrong password: the API's error answer as the portal receives it.
    const answer = page.waitForResponse((response) => response.url() === `${e2e.portal.url}/api/v2/token/`);
    await page.getByLabel('Email or Username').fill('berlin');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Login' }).click();
    const api = await answer;
    expect(api.status()).toBe(401);
    expect(expectSecurityHeaders(api, 'the API answer')['cache-control']).toBe('no-store');
  });
});

describe('the Content Security Policy watch', () => {
  it('reports what the policy blocks on a page of browser.newPage and of browser.newContext', async () => {
    const single = await e2e.browser.newPage(DESKTOP);
    const page = e2e.track(await (await e2e.browser.newContext(DESKTOP)).newPage());
    for (const [which, target] of [
      ['newPage', single],
      ['newContext', page],
    ] as const) {
      await target.goto(`${e2e.portal.url}/login`);
      await target.getByRole('heading', { name: 'Affiliate Login' }).waitFor();
      expect(pendingCspViolations(), which).toEqual([]);
      // An injected inline script and style attribute: both blocked, both reported.
      const ran = await target.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.__inlineScriptRan = true;';
        document.head.append(script);
        document.body.setAttribute('style', 'outline: 1px solid red');
        return (window as unknown as { __inlineScriptRan?: boolean }).__inlineScriptRan ?? false;
      });
      expect(ran, which).toBe(false);
      // Each reaches the test twice: the page's securitypolicyviolation event and Chromium's message.
      const expected = [/violation: script-src/, /violation: style-src/, /inline script violates/, /inline style violates/];
      await poll(`${which}: both violations reported both ways`, () => {
        const texts = pendingCspViolations().map((violation) => violation.text);
        return expected.every((pattern) => texts.some((text) => pattern.test(text))) ? texts : undefined;
      });
      takeCspViolations();
    }
    await single.close();
  });
});
