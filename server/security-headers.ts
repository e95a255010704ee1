// The security headers of every answer the server gives (the portal's page, its files, the API):
// a content security policy that lets the page load only its own code and styles, and the usual
// companions. API answers carry travellers' names and tokens, so no cache may keep them.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/** Where Google Tag Manager's script comes from (src/session/data-layer.ts loads it). */
export const TAG_MANAGER_ORIGIN = 'https://www.googletagmanager.com';

export interface SecurityHeaderOptions {
  /** Sends Strict-Transport-Security: only for a server reached over HTTPS. */
  hsts?: boolean;
  /** The portal was built with a tag manager: its script origin is allowed. */
  tagManager?: boolean;
  /** Hash sources ('sha256-...') of the inline scripts and styles the portal's page has, asked for each answer. */
  inlineHashes?: () => InlineHashes;
}

export interface InlineHashes {
  scripts: readonly string[];
  styles: readonly string[];
}

const NO_INLINE_HASHES: InlineHashes = { scripts: [], styles: [] };

const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The hash sources of a page's inline <script>s (those without src) or <style>s, each allowing
 * exactly that text.
 */
function elementHashes(html: string, tag: 'script' | 'style'): string[] {
  return [...html.matchAll(new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'gi'))]
    .filter(([, attributes = '', body = '']) => !/\ssrc\s*=/i.test(attributes) && body !== '')
    .map(([, , body = '']) => sha256Source(body));
}

export const inlineScriptHashes = (html: string) => elementHashes(html, 'script');
export const inlineStyleHashes = (html: string) => elementHashes(html, 'style');

/**
 * The hash sources of the built page's inline scripts and styles, as the page is now: read again
 * whenever the file changes (a rebuild under a running server), as the page itself is served. It
 * must exist when the server starts: a missing page fails there, rather than on the first request.
 */
export function builtPageHashes(file: string): () => InlineHashes {
  let seen = { mtimeMs: -1, size: -1, hashes: NO_INLINE_HASHES };
  const read = () => {
    const stats = fs.statSync(file);
    if (stats.mtimeMs !== seen.mtimeMs || stats.size !== seen.size) {
      const html = fs.readFileSync(file, 'utf8');
      seen = { mtimeMs: stats.mtimeMs, size: stats.size, hashes: { scripts: inlineScriptHashes(html), styles: inlineStyleHashes(html) } };
    }
    return seen.hashes;
  };
  read();
  return () => {
    try {
      return read();
    } catch {
      // Gone for a moment (mid-rebuild): the page cannot be served either.
      return seen.hashes;
    }
  };
}

export function securityHeaders({
  hsts = false,
  tagManager = false,
  inlineHashes = () => NO_INLINE_HASHES,
}: SecurityHeaderOptions = {}): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      // Scripts, styles, images and API calls from this origin only; no inline script or style
      // but the page's own, each allowed by its hash.
      defaultSrc: ["'self'"],
      // One value each, so that a page without inline scripts or styles gets no empty source in the list.
      scriptSrc: [() => ["'self'", ...inlineHashes().scripts].join(' '), ...(tagManager ? [TAG_MANAGER_ORIGIN] : [])],
      styleSrc: [() => ["'self'", ...inlineHashes().styles].join(' ')],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      // Not covered by default-src: an injected form must not post anywhere else.
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: 'strict-origin-when-cross-origin',
    // The same rule as frame-ancestors, for browsers that know only this header.
    xFrameOptions: 'DENY',
    // Once sent, browsers refuse plain HTTP to this host for a year: opt-in, behind HTTPS only.
    strictTransportSecurity: hsts ? 'max-age=31536000; includeSubDomains' : false,
  });
}

/** Cache-Control: no-store on the answer, whatever produced it (errors included). */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set('Cache-Control', 'no-store');
};
