// @vitest-environment node
// The built page's inline script (the prerendered login form's) under the content security
// policy: allowed by the hash of exactly its text, read from dist/index.html when the server
// starts; any other inline script stays blocked.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from './index.ts';
import { inlineScriptHashes } from './security-headers.ts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const BOOT = 'document.documentElement.setAttribute("data-login-hidden","")';

describe('inlineScriptHashes', () => {
  it('hashes the text of each inline script, exactly as written', () => {
    const html = `<head><script>${BOOT}</script><script type="module" crossorigin src="/assets/index-1.js"></script></head><body><script>\n  x()\n</script></body>`;
    expect(inlineScriptHashes(html)).toEqual([sha256(BOOT), sha256('\n  x()\n')]);
  });

  it('leaves out scripts loaded from a file, and empty ones', () => {
    expect(inlineScriptHashes('<script src="/a.js"></script><script type="module" src="/b.js"></script><script></script>')).toEqual([]);
  });
});

describe('the server with a built page that has an inline script', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-inline-csp-'));
  const distDir = path.join(workDir, 'dist');
  fs.mkdirSync(distDir, { recursive: true });
  fs.writeFileSync(
    path.join(distDir, 'index.html'),
    `<!doctype html><html><head><title>Portal</title><script>${BOOT}</script></head><body><div id="root"></div></body></html>`,
  );
  afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

  it("allows that script by its hash, and no other inline script ('unsafe-inline' never)", async () => {
    const server = await startServer({ port: 0, databasePath: path.join(workDir, 'portal.sqlite'), distDir, demo: false, log: () => {} });
    try {
      const base = server.url.replace('//localhost:', '//127.0.0.1:');
      for (const route of ['/login', '/api/v2/affiliates/']) {
        const policy = (await fetch(`${base}${route}`)).headers.get('content-security-policy') ?? '';
        const scriptSrc = policy.split('; ').find((directive) => directive.startsWith('script-src '));
        expect(scriptSrc, route).toBe(`script-src 'self' ${sha256(BOOT)}`);
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
        `<!doctype html><html><head><title>Portal</title><script>${BOOT}</script></head><body><div id="root"></div></body></html>`,
      );
    }
  });
});
