// The security headers of every answer the server gives (the portal's page, its files, the API),
// as the build wrote them into dist/_headers (build/page-policy.ts): the content security policy
// that lets the page load only its own code and styles, with the hashes of the page's inline
// script and style, and the usual companions. API answers carry travellers' names and tokens, so
// no cache may keep them.
import fs from 'node:fs';
import path from 'node:path';
import type { MiddlewareHandler } from 'hono';
import {
  ASSETS_PATH,
  EVERY_PATH,
  PAGE_PATHS,
  parseHeadersFile,
  policyDirectives,
  securityHeadersOf,
  type HeaderRules,
} from './security-policy.ts';

export interface BuiltHeaders {
  /** The headers of every answer. */
  every: [string, string][];
  /** Cache-Control of the hashed files under /assets/. */
  assets: string;
  /** Cache-Control of the portal's page. */
  page: string;
}

/** Without a built portal (Vite's dev server serves the page): the policy of a page without inline code. */
export const API_ONLY_HEADERS: BuiltHeaders = { every: securityHeadersOf(policyDirectives()), assets: '', page: '' };

function rule(rules: HeaderRules, path: string, file: string): [string, string][] {
  const headers = rules.get(path);
  if (!headers?.length) throw new Error(`${file} has no rule for ${path}: rebuild the portal (npm run build)`);
  return headers;
}

function cacheControl(rules: HeaderRules, path: string, file: string): string {
  const value = rule(rules, path, file).find(([name]) => name.toLowerCase() === 'cache-control')?.[1];
  if (value === undefined) throw new Error(`${file} gives ${path} no Cache-Control: rebuild the portal (npm run build)`);
  return value;
}

export function builtHeadersOf(text: string, file = '_headers'): BuiltHeaders {
  const rules = parseHeadersFile(text);
  const every = rule(rules, EVERY_PATH, file);
  if (!every.some(([name]) => name.toLowerCase() === 'content-security-policy'))
    throw new Error(`${file} has no Content-Security-Policy for ${EVERY_PATH}: rebuild the portal (npm run build)`);
  return { every, assets: cacheControl(rules, ASSETS_PATH, file), page: cacheControl(rules, PAGE_PATHS[0]!, file) };
}

/**
 * The headers the build wrote into dist/_headers, as they are now: read again whenever the file
 * changes (a rebuild under a running server), as the page itself is served. It must exist when the
 * server starts: a missing or incomplete file fails there, rather than on the first request.
 */
export function builtHeaders(distDir: string): () => BuiltHeaders {
  const file = path.join(distDir, '_headers');
  let seen: { mtimeMs: number; size: number; headers: BuiltHeaders } | undefined;
  const read = (): BuiltHeaders => {
    const stats = fs.statSync(file);
    if (!seen || stats.mtimeMs !== seen.mtimeMs || stats.size !== seen.size) {
      seen = { mtimeMs: stats.mtimeMs, size: stats.size, headers: builtHeadersOf(fs.readFileSync(file, 'utf8'), file) };
    }
    return seen.headers;
  };
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the portal (npm run build)`);
  const first = read();
  return () => {
    try {
      return read();
    } catch {
      // Gone or half-written for a moment (mid-rebuild): the last complete rules hold.
      return seen?.headers ?? first;
    }
  };
}

export interface SecurityHeaderOptions {
  /** Sends Strict-Transport-Security: only for a server reached over HTTPS. */
  hsts?: boolean;
  headers?: () => BuiltHeaders;
}

export function securityHeaders({ hsts = false, headers = () => API_ONLY_HEADERS }: SecurityHeaderOptions = {}): MiddlewareHandler {
  return async (c, next) => {
    await next();
    for (const [name, value] of headers().every) c.res.headers.set(name, value);
    // Once sent, browsers refuse plain HTTP to this host for a year: opt-in, behind HTTPS only.
    if (hsts) c.res.headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    c.res.headers.delete('X-Powered-By');
  };
}

/** Cache-Control: no-store on the answer, whatever produced it (errors included). */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set('Cache-Control', 'no-store');
};
