// One JSON line per request: when, how it went, how long it took, and the request's id (also
// sent back as X-Request-Id). Never a body, a header or a query string, which carry passwords,
// tokens, codes and the affiliate a superuser views as; an invite's id in a path is replaced.
import type { MiddlewareHandler } from 'hono';
import { requestId, type RequestIdVariables } from 'hono/request-id';

export type RequestLogEnv = { Variables: RequestIdVariables };

export interface RequestLogLine {
  time: string;
  level: 'info' | 'warn' | 'error';
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  request_id: string;
}

/**
 * The path as logged: an invite's id (the API's lookup, the portal's invite page) replaced, since
 * whoever reads the log could register with it.
 */
export function loggedPath(path: string): string {
  return path.replace(/(\/invites?\/)(?!register(?:\/|$))[^/]+/gi, '$1:inviteId');
}

const levelOf = (status: number): RequestLogLine['level'] => (status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info');

/**
 * A new id for every request. Behind a trusted proxy, a well-formed X-Request-Id it sends is kept,
 * so its log and this one name the same request; otherwise a client's own is not taken (a limit of
 * zero characters refuses every one).
 */
export const assignRequestId = ({ trustProxy }: { trustProxy: boolean }) => requestId({ limitLength: trustProxy ? 255 : 0 });

export function requestLog(write: (line: string) => void): MiddlewareHandler<RequestLogEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const line: RequestLogLine = {
      time: new Date().toISOString(),
      level: levelOf(c.res.status),
      method: c.req.method,
      path: loggedPath(c.req.path),
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      request_id: c.get('requestId'),
    };
    write(JSON.stringify(line));
  };
}
