// Throttling of repeated failures (wrong passwords, wrong codes): after `limit` failures within
// `windowMs` for one key, further attempts get 429 until the oldest failure leaves the window.
import type { Db } from './db.ts';
import { detail } from './http.ts';

export interface Throttle {
  /** Throws 429 while `key` has too many recent failures. */
  check(key: string): void;
  fail(key: string): void;
  clear(key: string): void;
}

export function createThrottle(db: Db, now: () => number, limit = 5, windowMs = 15 * 60_000): Throttle {
  const recent = db.prepare<[string, number], { count: number; oldest: number | null }>(
    'SELECT COUNT(*) AS count, MIN(at) AS oldest FROM failed_attempts WHERE key = ? AND at > ?',
  );
  const insert = db.prepare('INSERT INTO failed_attempts (key, at) VALUES (?, ?)');
  const remove = db.prepare('DELETE FROM failed_attempts WHERE key = ?');
  const prune = db.prepare('DELETE FROM failed_attempts WHERE at <= ?');
  return {
    check(key) {
      const { count, oldest } = recent.get(key, now() - windowMs) ?? { count: 0, oldest: null };
      if (count < limit || oldest === null) return;
      const seconds = Math.max(1, Math.ceil((oldest + windowMs - now()) / 1000));
      throw detail(429, `Request was throttled. Expected available in ${seconds} seconds.`);
    },
    fail(key) {
      prune.run(now() - windowMs);
      insert.run(key, now());
    },
    clear(key) {
      remove.run(key);
    },
  };
}
