// The portal's security headers and caching rules, as the build writes them into dist/_headers
// (the file Netlify and Cloudflare Pages read) and as the reference server and the nginx
// configuration read them back: one policy, made once, at build time, from the built page.
// The build also writes the policy into the page (a <meta> tag), which any host serves as it is.

/** Where Google Tag Manager's script comes from (src/session/data-layer.ts loads it). */
export const TAG_MANAGER_ORIGIN = 'https://www.googletagmanager.com';

/** Hashed files under /assets/ never change: a year, and no revalidation. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** The page names the current assets: always revalidated. */
export const PAGE_CACHE_CONTROL = 'no-cache';

export interface PolicyInputs {
  /** Hash sources ('sha256-...') of the page's inline scripts. */
  scriptHashes?: readonly string[];
  /** Hash sources of the page's inline <style>s. */
  styleHashes?: readonly string[];
  /** The portal was built with a tag manager (VITE_GTM_ID): its script origin is allowed. */
  tagManager?: boolean;
  /** The API's origin when it is not the page's own (VITE_API_BASE_URL an absolute URL). */
  apiOrigin?: string;
}

export type Directives = [name: string, sources: string[]][];

/**
 * Scripts, styles, images and API calls from this origin only; no inline script or style but the
 * page's own, each allowed by its hash ('unsafe-inline' never).
 */
export function policyDirectives({ scriptHashes = [], styleHashes = [], tagManager = false, apiOrigin }: PolicyInputs = {}): Directives {
  return [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...scriptHashes, ...(tagManager ? [TAG_MANAGER_ORIGIN] : [])]],
    ['style-src', ["'self'", ...styleHashes]],
    ...(apiOrigin ? ([['connect-src', ["'self'", apiOrigin]]] as Directives) : []),
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    // Not covered by default-src: an injected form must not post anywhere else.
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
}

export const policyText = (directives: Directives) => directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');

/** The policy a <meta> tag may carry: browsers ignore frame-ancestors there (the header has it). */
export const metaPolicyText = (directives: Directives) => policyText(directives.filter(([name]) => name !== 'frame-ancestors'));

/** The headers of every answer besides the policy: what hono's secureHeaders sent, with our choices. */
export const COMPANION_HEADERS: readonly [string, string][] = [
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  // The same rule as frame-ancestors, for browsers that know only this header.
  ['X-Frame-Options', 'DENY'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  // The old filters' blocking mode could itself be abused: off.
  ['X-XSS-Protection', '0'],
];

export const securityHeadersOf = (directives: Directives): [string, string][] => [
  ['Content-Security-Policy', policyText(directives)],
  ...COMPANION_HEADERS,
];

/** The rule paths of dist/_headers the portal uses. */
export const EVERY_PATH = '/*';
export const ASSETS_PATH = '/assets/*';
export const PAGE_PATHS = ['/', '/index.html'];

export type HeaderRules = Map<string, [string, string][]>;

/** The rules of dist/_headers: every answer's security headers, the assets' and the page's caching. */
export function portalHeaderRules(directives: Directives): HeaderRules {
  return new Map([
    [EVERY_PATH, securityHeadersOf(directives)],
    [ASSETS_PATH, [['Cache-Control', ASSET_CACHE_CONTROL]]],
    ...PAGE_PATHS.map((path) => [path, [['Cache-Control', PAGE_CACHE_CONTROL]]] as [string, [string, string][]]),
  ]);
}

/** The _headers format: a path on a line of its own, then its headers indented, `Name: value`. */
export function headersFileText(rules: HeaderRules): string {
  const lines = [
    '# Written by the build: the headers of the portal on a static host (Netlify, Cloudflare Pages),',
    '# read back by the reference server and deploy/render-nginx.sh.',
  ];
  for (const [path, headers] of rules) lines.push(path, ...headers.map(([name, value]) => `  ${name}: ${value}`));
  return `${lines.join('\n')}\n`;
}

export function parseHeadersFile(text: string): HeaderRules {
  const rules: HeaderRules = new Map();
  let current: [string, string][] | undefined;
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      current = rules.get(line.trim()) ?? [];
      rules.set(line.trim(), current);
      continue;
    }
    const header = /^\s+([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
    if (!header || !current) throw new Error(`_headers line ${index + 1} is not a header under a path: ${line}`);
    current.push([header[1]!, header[2]!.trim()]);
  }
  return rules;
}
