// Password hashes take turns. A hash keeps a core busy for tens of milliseconds (it runs on libuv's
// thread pool, four threads by default); with every core hashing, the event loop waits for a core
// and every other request with it. So at most one hash per core but one (at least one) runs at a
// time, a few more requests wait their turn, and past that a request is answered 503 with
// Retry-After at once, before it is counted or hashed: the client tries again shortly.
import os from 'node:os';
import { ApiError } from './http.ts';

export interface HashGateOptions {
  /** Hashes at once; hashSlots() by default. */
  slots?: number;
  /** Requests waiting for a turn, beyond which 503; QUEUE_PER_SLOT per slot by default. */
  queue?: number;
}

export interface HashGate {
  /** Throws 503 (with Retry-After and a JSON detail) while every slot is busy and the queue is full. */
  check(): void;
  /** Runs `hash` in its turn: at once when a slot is free, else after the hashes that asked before it. */
  run<T>(hash: () => Promise<T>): Promise<T>;
}

/** One hash per core but one, at least one: a core is left for the event loop. */
export const hashSlots = (cores = os.availableParallelism()) => Math.max(1, cores - 1);

/**
 * Requests waiting per slot: about a second of hashing on a busy core, so that a burst of sign-ins
 * (a team starting its day) waits its turn rather than being refused. Shorter, a client that
 * tries again at once keeps the server answering refusals instead of its other users.
 */
export const QUEUE_PER_SLOT = 24;

/** How long a refused request is told to wait (Retry-After), in seconds. */
const RETRY_AFTER_SECONDS = 1;

export function createHashGate(options: HashGateOptions = {}): HashGate {
  const slots = options.slots ?? hashSlots();
  const queue = options.queue ?? QUEUE_PER_SLOT * slots;
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return {
    check() {
      if (running < slots || waiting.length < queue) return;
      throw new ApiError(
        503,
        { detail: `The server is busy signing other users in. Please try again in ${RETRY_AFTER_SECONDS} second.` },
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    },
    run(hash) {
      // The turn is taken now, not after an await: check() and run() called together cannot be outrun.
      const turn = running < slots ? ((running += 1), Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve));
      return turn.then(hash).finally(release);
    },
  };
}
