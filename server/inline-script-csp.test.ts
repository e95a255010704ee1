// @vitest-environment node
// The built page's inline script and stylesheet (the prerendered login form's) under the content
// security policy: allowed by the hash of exactly their text, read from dist/index.html when the
// server starts; any other inline script or style stays blocked.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from './index.ts';
import { inlineScriptHashes, inlineStyleHashes } from './security-headers.ts';

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

describe('the server with a built page that has an inline script and stylesheet', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-inline-csp-'));
  const distDir = path.join(workDir, 'dist');
  fs.mkdirSync(distDir, { recursive: true });
  fs.writeFileSync(
    path.join(distDir, 'index.html'),
    `<!doctype html><html><head><title>Portal</title><script>${BOOT}</script><style>${STYLES}</style></head><body><div id="root"></div></body></html>`,
  );
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
      }
    } finally {
      await server.close();
    }
  });

  it('follows a rebuilt page under a running server: the new script is allowed, the old one no longer', async () => {
    const page = path.join(distDir, 'index.html');
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
      fs.writeFileSync(
        page,
        `<!doctype html><html><head><title>Portal</title><script>${rebuilt}</script></head><body><div id="root"></div></body></html>`,
      );
      // A later modification time, as a rebuild gives, even on a coarse clock.
      fs.utimesSync(page, new Date(), new Date(Date.now() + 2_000));
      const served = await (await fetch(`${base}/login`)).text();
      expect(served).toContain('/* rebuilt */');
      expect(await scriptSrc()).toBe(`script-src 'self' ${sha256(rebuilt)}`);
    } finally {
      await server.close();
      fs.writeFileSync(
        page,
        `<!doctype html><html><head><title>Portal</title><script>${BOOT}</script><style>${STYLES}</style></head><body><div id="root"></div></body></html>`,
      );
    }
  });
});
