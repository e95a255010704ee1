// Compressed answers: brotli when the request's Accept-Encoding takes it, else gzip, else the bytes
// as they are. Only text is compressed (JSON, JS, CSS, HTML, SVG...): PNG, woff2 or the xlsx
// report are compressed already. node:zlib works in its thread pool, so the event loop stays free.
// Not hono/compress: it knows only gzip and deflate (CompressionStream), not brotli.
import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { parseAccept } from 'hono/utils/accept';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';

export type Encoding = 'br' | 'gzip';

/** Smaller answers go out raw: they fit in one packet anyway, and a compressed form barely gains. */
export const MIN_COMPRESSED_BYTES = 1024;

/** From this size on, answers made on the fly are compressed with fast settings. */
const BIG_ANSWER_BYTES = 1024 * 1024;

/**
 * The encoding an Accept-Encoding header asks for: the one with the higher q-value, brotli on a tie,
 * none when both have q=0 (or are not listed and no `*` covers them) or when `identity` is
 * explicitly preferred. No header at all gets the raw bytes.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (acceptEncoding === undefined) return undefined;
  const accepts = parseAccept(acceptEncoding);
  const listed = (coding: string) => accepts.find((accept) => accept.type.toLowerCase() === coding)?.q;
  const wildcard = listed('*');
  const br = listed('br') ?? wildcard ?? 0;
  const gzip = listed('gzip') ?? listed('x-gzip') ?? wildcard ?? 0;
  const best: Encoding | undefined = br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : undefined;
  const identity = listed('identity');
  if (best === undefined || (identity !== undefined && identity > Math.max(br, gzip))) return undefined;
  return best;
}

export function isCompressible(contentType: string | null): boolean {
  return contentType !== null && COMPRESSIBLE_CONTENT_TYPE_REGEX.test(contentType);
}

/** Accept-Encoding chose the answer's form: caches must keep the raw and each compressed one apart. */
export function varyOnAcceptEncoding(headers: Headers): void {
  const vary = headers.get('Vary');
  if (vary === '*' || (vary !== null && /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary))) return;
  headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

function brotliOptions(quality: number, size: number): zlib.BrotliOptions {
  return {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

/** The smallest form, for files compressed once and kept: brotli 11 takes ~0.4 s on a 330 KB chunk. */
export function compressOnce(bytes: Buffer, encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    // Copied once into a plain Uint8Array: a Response body, kept and sent many times.
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(new Uint8Array(result)));
    if (encoding === 'br') zlib.brotliCompress(bytes, brotliOptions(zlib.constants.BROTLI_MAX_QUALITY, bytes.length), done);
    else zlib.gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }, done);
  });
}

/**
 * A stream compressing an answer made on the fly. Big answers get fast settings: on a 30 MB list
 * brotli 3 or gzip 3 take ~0.12 s, less than sending the 27 MB they save over 1 Gbit/s (~0.2 s);
 * brotli 5 or gzip 6 would take 0.2-0.5 s. Small answers take a few milliseconds at the better ones.
 */
function liveCompressor(encoding: Encoding, size: number): zlib.BrotliCompress | zlib.Gzip {
  const big = size >= BIG_ANSWER_BYTES;
  if (encoding === 'br') return zlib.createBrotliCompress(brotliOptions(big ? 3 : 5, size));
  return zlib.createGzip({ level: big ? 3 : 6 });
}

const NO_TRANSFORM = /(^|,)\s*no-transform\s*(,|$)/i;

/**
 * The first megabyte of a body, or all of it if it is shorter (`ended`), and the rest to come: a
 * body made in memory is read at once, a body written as it goes (a long list) starts going out
 * after its first megabyte, while the rest is still being written.
 */
async function readHead(
  body: ReadableStream<Uint8Array>,
): Promise<{ head: Uint8Array<ArrayBuffer>; ended: boolean; rest: AsyncGenerator<Uint8Array>; cancel: () => Promise<void> }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  while (size < BIG_ANSWER_BYTES) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  async function* rest(): AsyncGenerator<Uint8Array> {
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) yield chunk.value;
    } finally {
      // Read to its end, or left (the client went away): the writer stops either way.
      await reader.cancel();
    }
  }
  const head = new Uint8Array(size);
  chunks.reduce((at, chunk) => (head.set(chunk, at), at + chunk.length), 0);
  return { head, ended, rest: rest(), cancel: () => reader.cancel() };
}

/**
 * Compresses the answers handlers make (the API's JSON, its errors) as they stream out, so the
 * first bytes leave while the rest is compressed, or still being written; their length is then
 * unknown (chunked). Answers already encoded, partial, without a body or too small are left alone.
 */
export function compressAnswers(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const answer = c.res;
    if (
      answer.status === 206 ||
      answer.headers.has('Content-Encoding') ||
      !isCompressible(answer.headers.get('Content-Type')) ||
      NO_TRANSFORM.test(answer.headers.get('Cache-Control') ?? '')
    ) {
      return;
    }
    varyOnAcceptEncoding(answer.headers);
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    // Untouched when raw anyway: reading the body would only slow a big answer down.
    if (encoding === undefined || answer.body === null) return;
    // Its size decides: read up to the first megabyte of it.
    const { head, ended, rest, cancel } = await readHead(answer.body);
    if (ended && head.length < MIN_COMPRESSED_BYTES) {
      c.res = new Response(head, answer);
      return;
    }
    let compressed: ReadableStream<Uint8Array> | null = null;
    // HEAD answers carry the headers of GET's compressed answer and no body: nothing to compress.
    if (c.req.method === 'HEAD') {
      await cancel();
    } else {
      const compressor = liveCompressor(encoding, ended ? head.length : BIG_ANSWER_BYTES);
      if (ended) {
        compressor.end(head);
      } else {
        compressor.write(head);
        // A client that goes away mid-answer ends the writing too (pipeline destroys both ends).
        pipeline(Readable.from(rest), compressor, () => {});
      }
      compressed = Readable.toWeb(compressor) as ReadableStream<Uint8Array>;
    }
    c.res = new Response(compressed, answer);
    c.res.headers.set('Content-Encoding', encoding);
    c.res.headers.delete('Content-Length');
  };
}
