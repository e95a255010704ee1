// @vitest-environment node
// The built page's inline script and stylesheet (the prerendered login form's) under the content
// security policy the server sends: the one the build wrote into dist/_headers, which allows them
// by the hash of exactly their text; any other inline script or style stays blocked.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pageDirectives } from '../build/page-policy.ts';
import { startServer } from './index.ts';
import { headersFileText, portalHeaderRules } from './security-policy.ts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const BOOT = 'document.documentElement.setAttribute("data-login-hidden","")';
const STYLES = '.app{display:flex}h1{margin:0}';
const pageWith = (script: string, style = '') =>
  `<!doctype html><html><head><title>Portal</title><script>${script}</script>${style && `<style>${style}</style>`}</head><body><div id="root"></div></body></html>`;

/** dist/ as the build leaves it: the page, and the headers file made from it. */
function build(distDir: string, html: string): void {
  fs.writeFileSync(path.join(distDir, 'index.html'), html);
  fs.writeFileSync(path.join(distDir, '_headers'), headersFileText(portalHeaderRules(pageDirectives(html))));
}

describe('the server with a built page that has an inline script and stylesheet', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-inline-csp-'));
  const distDir = path.join(workDir, 'dist');
  fs.mkdirSync(distDir, { recursive: true });
  build(distDir, pageWith(BOOT, STYLES));
  afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

  it("allows that script and stylesheet by their hashes, and no other inline script or style ('unsafe-inline' never)", async () => {
    const server = await startServer({ port: 0, databasePath: path.join(workDir, 'portal.sqlite'), distDir, demo: false, log: () => {} });
    try {
      const base = server.url.replace('//localhost:', '//127.0.0.1:');
      for (const route of ['/login', '/api/v2/affiliates/']) {
        const policy = (await fetch(`${base}${route}`)).headers.get('content-security-policy') ?? '';
        const directive = (name: string) => policy.split('; ').find((text) => text.startsWith(`${name} `));
        expect(directive('script-src'), route).toBe(`script-src 'self' ${sha256(BOOT)}`);
        expect(directive('style-src'), route).toBe(`style-src 'self' ${sha256(STYLES)}`);
        expect(policy, route).not.toContain('unsafe-inline');
      }
    } finally {
      await server.close();
    }
  });

  it('follows a rebuild under a running server: the new script is allowed, the old one no longer', async () => {
    const server = await startServer({
      port: 0,
      databasePath: path.join(workDir, 'portal-rebuilt.sqlite'),
      distDir,
      demo: false,
      log: () => {},
    });
    try {
      const base = server.url.replace('//localhost:', '//127.0.0.1:');
      const scriptSrc = async () =>
        ((await fetch(`${base}/login`)).headers.get('content-security-policy') ?? '')
          .split('; ')
          .find((directive) => directive.startsWith('script-src '));
      expect(await scriptSrc()).toBe(`script-src 'self' ${sha256(BOOT)}`);
      const rebuilt = `${BOOT}\n/* rebuilt */`;
      build(distDir, pageWith(rebuilt));
      // A later modification time, as a rebuild gives, even on a coarse clock.
      for (const file of ['index.html', '_headers']) fs.utimesSync(path.join(distDir, file), new Date(), new Date(Date.now() + 2_000));
      const served = await (await fetch(`${base}/login`)).text();
      expect(served).toContain('/* rebuilt */');
      expect(await scriptSrc()).toBe(`script-src 'self' ${sha256(rebuilt)}`);
    } finally {
      await server.close();
      build(distDir, pageWith(BOOT, STYLES));
    }
  });
});
