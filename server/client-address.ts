// The address a request came from, for throttling. Behind one trusted reverse proxy
// (trustProxy), the last X-Forwarded-For entry: the one that proxy appended; the entries before
// it are whatever the client sent. Otherwise the socket's peer, which the Node adapter passes
// in the bindings as `incoming`.
import type { Context } from 'hono';

interface SocketBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/** An address shared by requests whose peer is not known (in-process calls). */
export const UNKNOWN_ADDRESS = 'unknown';

export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req
      .header('x-forwarded-for')
      ?.split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    const last = forwarded?.at(-1);
    if (last) return last;
  }
  const bindings = c.env as SocketBindings | undefined;
  return bindings?.incoming?.socket?.remoteAddress ?? UNKNOWN_ADDRESS;
}
