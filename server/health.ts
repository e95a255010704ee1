// GET /healthz: whether the server can answer, for a load balancer or a container's health check.
// It asks the database a trivial question; no authentication, no throttle, never cached.
import type { Handler } from 'hono';
import type { Db } from './db.ts';

export const HEALTH_PATH = '/healthz';

/** Whether the database answers: false when it is closed or the query fails. */
function databaseAnswers(db: Db): boolean {
  try {
    return db.prepare('SELECT 1').pluck().get() === 1;
  } catch {
    return false;
  }
}

export function healthCheck(db: Db): Handler {
  return (c) => {
    c.header('Cache-Control', 'no-store');
    return databaseAnswers(db) ? c.json({ status: 'ok' }) : c.json({ status: 'unavailable' }, 503);
  };
}
