// The built portal's files, compressed once: each text file's brotli and gzip forms are kept in
// memory, keyed on the file's modification time and size, so a rebuilt dist/ (a new index.html)
// is compressed anew. Hashed assets never change; files a rebuild removes keep their forms until
// the server restarts (a few hundred KB per rebuild).
import fs from 'node:fs/promises';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { chooseEncoding, compressOnce, isCompressible, MIN_COMPRESSED_BYTES, varyOnAcceptEncoding, type Encoding } from './compression.ts';

export interface CompressedFile {
  bytes: Uint8Array<ArrayBuffer>;
  modified: Date;
}

export interface FileCache {
  /** The file's compressed form, made on first use and kept while the file stays the same. */
  compressed(file: string, encoding: Encoding): Promise<CompressedFile>;
  /** Compresses the text files under `dir` in the background, so that no visitor waits for it. */
  warm(dir: string): void;
}

interface Entry {
  mtimeMs: number;
  size: number;
  forms: Map<Encoding, Promise<Uint8Array<ArrayBuffer>>>;
}

export function createFileCache(): FileCache {
  const entries = new Map<string, Entry>();

  async function compressed(file: string, encoding: Encoding): Promise<CompressedFile> {
    const key = path.resolve(file);
    const stats = await fs.stat(key);
    let entry = entries.get(key);
    if (!entry || entry.mtimeMs !== stats.mtimeMs || entry.size !== stats.size) {
      entry = { mtimeMs: stats.mtimeMs, size: stats.size, forms: new Map() };
      entries.set(key, entry);
    }
    let form = entry.forms.get(encoding);
    if (!form) {
      form = fs.readFile(key).then((bytes) => compressOnce(bytes, encoding));
      entry.forms.set(encoding, form);
      // A failed read is not kept: the next request tries again.
      const failed = entry;
      form.catch(() => failed.forms.delete(encoding));
    }
    return { bytes: await form, modified: stats.mtime };
  }

  async function warm(dir: string): Promise<void> {
    for (const name of await fs.readdir(dir, { recursive: true })) {
      const file = path.join(dir, name);
      if (!isCompressible(getMimeType(file) ?? null)) continue;
      const stats = await fs.stat(file);
      if (!stats.isFile() || stats.size < MIN_COMPRESSED_BYTES) continue;
      await Promise.all([compressed(file, 'br'), compressed(file, 'gzip')]);
    }
  }

  return {
    compressed,
    warm: (dir) => {
      // Only a head start: a file that cannot be read now is compressed when asked for.
      warm(dir).catch(() => {});
    },
  };
}

export interface ServeFilesOptions {
  /** The folder, relative to the working directory. */
  root: string;
  /** Always this file of `root` (the portal's page), whatever the request's path. */
  path?: string;
  /** Cache-Control of the answers, asked for each (the build's rules, read again after a rebuild). */
  cacheControl?: () => string;
  cache: FileCache;
}

/**
 * serveStatic (safe paths, HEAD, ranges) with compressed answers from the cache. A Range request
 * is answered as before, from the raw file: its byte positions are those of the raw form.
 */
export function serveFiles(options: ServeFilesOptions): MiddlewareHandler {
  const found = new WeakMap<Context, string>();
  const files = serveStatic({
    root: options.root,
    ...(options.path === undefined ? {} : { path: options.path }),
    onFound: (file, c) => {
      found.set(c, file);
    },
  });
  return async (c, next) => {
    const answer = await files(c, next);
    const file = found.get(c);
    if (!(answer instanceof Response) || file === undefined) return answer;
    if (options.cacheControl) answer.headers.set('Cache-Control', options.cacheControl());
    if (!isCompressible(answer.headers.get('Content-Type'))) return answer;
    varyOnAcceptEncoding(answer.headers);
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    if (answer.status !== 200 || encoding === undefined || Number(answer.headers.get('Content-Length')) < MIN_COMPRESSED_BYTES) {
      return answer;
    }
    let form: CompressedFile;
    try {
      form = await options.cache.compressed(file, encoding);
    } catch {
      return answer;
    }
    await answer.body?.cancel();
    const compressed = new Response(c.req.method === 'HEAD' ? null : form.bytes, answer);
    compressed.headers.set('Content-Encoding', encoding);
    compressed.headers.set('Content-Length', String(form.bytes.length));
    compressed.headers.set('Last-Modified', form.modified.toUTCString());
    return compressed;
  };
}
