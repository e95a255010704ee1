// A Vite plugin that makes the portal's protections part of the build, so that any host serving
// dist/ serves them: the page carries its Content Security Policy in a <meta> tag, with the hash of
// each inline script and style the page has once prerendered (build/prerender-login.ts); dist/_headers
// carries the full policy (frame-ancestors, which a <meta> policy cannot hold), the other security
// headers and the caching rules, for static hosts, the reference server and nginx; and each text
// file gets a gzip twin (name.gz) for hosts that serve precompressed files (nginx's gzip_static).
// The hashes are worked out here rather than by a plugin such as vite-plugin-csp-guard: that one
// re-serializes the whole prerendered page, lists every chunk's hash in the policy and writes no
// _headers.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { getMimeType } from 'hono/utils/mime';
import type { Plugin, ResolvedConfig } from 'vite';
import { isCompressible, MIN_COMPRESSED_BYTES } from '../server/compression.ts';
import {
  headersFileText,
  metaPolicyText,
  policyDirectives,
  portalHeaderRules,
  type Directives,
  type PolicyInputs,
} from '../server/security-policy.ts';
import type { Env } from '../src/config/parse-env.ts';

const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The hash sources of a page's inline <script>s (those without src) or <style>s, each allowing exactly that text. */
function elementHashes(html: string, tag: 'script' | 'style'): string[] {
  return [...html.matchAll(new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'gi'))]
    .filter(([, attributes = '', body = '']) => !/\ssrc\s*=/i.test(attributes) && body !== '')
    .map(([, , body = '']) => sha256Source(body));
}

export const inlineScriptHashes = (html: string) => elementHashes(html, 'script');
export const inlineStyleHashes = (html: string) => elementHashes(html, 'style');

/** What the build's configuration adds to the policy: the tag manager, an API on another origin. */
export function configuredPolicy(env: Pick<Env, 'gtmId' | 'apiBaseUrl'>): Pick<PolicyInputs, 'tagManager' | 'apiOrigin'> {
  const api = /^https?:/i.test(env.apiBaseUrl) ? new URL(env.apiBaseUrl).origin : undefined;
  return { tagManager: env.gtmId !== undefined, apiOrigin: api };
}

/** The page's policy, for its inline scripts and styles as they are now. */
export const pageDirectives = (html: string, configured: Pick<PolicyInputs, 'tagManager' | 'apiOrigin'> = {}): Directives =>
  policyDirectives({ ...configured, scriptHashes: inlineScriptHashes(html), styleHashes: inlineStyleHashes(html) });

const CHARSET = /<meta charset="[^"]*"\s*\/?>/i;

/**
 * The page with its policy in a <meta> tag right after the charset, before any inline script or
 * style (a <meta> policy governs only what follows it). No attribute of the policy needs escaping:
 * it holds quotes of one kind only.
 */
export function withMetaPolicy(html: string, directives: Directives): string {
  if (!CHARSET.test(html)) throw new Error('page-policy: index.html has no <meta charset> to put the policy after');
  const policy = metaPolicyText(directives);
  if (policy.includes('"')) throw new Error('page-policy: the policy cannot go into a double-quoted attribute');
  return html.replace(CHARSET, (charset) => `${charset}\n    <meta http-equiv="Content-Security-Policy" content="${policy}">`);
}

/** Writes `name.gz` beside each text file of `dir` that is worth compressing. */
function writeGzipTwins(dir: string): void {
  for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, name);
    if (!isCompressible(getMimeType(file) ?? null) || !fs.statSync(file).isFile()) continue;
    const bytes = fs.readFileSync(file);
    if (bytes.length >= MIN_COMPRESSED_BYTES) fs.writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  }
}

export function pagePolicy(env: Pick<Env, 'gtmId' | 'apiBaseUrl'>): Plugin {
  let config: ResolvedConfig;
  let directives: Directives | undefined;
  return {
    name: 'page-policy',
    apply: 'build',
    // After every other plugin's page transforms: the prerendered login's script and style are in.
    enforce: 'post',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        directives = pageDirectives(html, configuredPolicy(env));
        return withMetaPolicy(html, directives);
      },
    },
    closeBundle() {
      // A build that failed before its page was written has nothing to describe.
      if (!directives) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      fs.writeFileSync(path.join(outDir, '_headers'), headersFileText(portalHeaderRules(directives)));
      writeGzipTwins(outDir);
    },
  };
}
