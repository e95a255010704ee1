// @vitest-environment node
// Password hashes take turns, so that signing in never starves the event loop: at most one hash
// per core but one (at least one) at a time, a short queue, and past it 503 with Retry-After and
// a JSON detail at once. No sign-in is lost: each is answered 200 or 503 (or a throttle's 429).
import { describe, expect, it } from 'vitest';
import { postApi } from '../tests/utils/api-calls.ts';
import { addFixtures, createTestServer } from '../tests/utils/api-server.ts';
import { createHashGate, hashSlots } from './hash-gate.ts';
import { ApiError } from './http.ts';

describe('hashSlots', () => {
  it('is one per core but one, and at least one', () => {
    expect(hashSlots(1)).toBe(1);
    expect(hashSlots(2)).toBe(1);
    expect(hashSlots(4)).toBe(3);
    expect(hashSlots(16)).toBe(15);
  });
});

describe('the hash gate', () => {
  /** A hash that ends when the test says so, counting how many run at once. */
  function hashes() {
    let running = 0;
    let most = 0;
    const ends: (() => void)[] = [];
    const hash = () =>
      new Promise<void>((resolve) => {
        running += 1;
        most = Math.max(most, running);
        ends.push(() => {
          running -= 1;
          resolve();
        });
      });
    return { hash, ends, most: () => most };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('runs at most `slots` hashes at once, the others in the order they came', async () => {
    const gate = createHashGate({ slots: 2, queue: 10 });
    const { hash, ends, most } = hashes();
    const order: number[] = [];
    const all = Array.from({ length: 6 }, (_, index) => gate.run(hash).then(() => order.push(index)));
    await settle();
    expect(ends).toHaveLength(2);
    while (ends.length > 0) {
      ends.shift()!();
      await settle();
    }
    await Promise.all(all);
    expect(most()).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('refuses with 503, Retry-After and a JSON detail once the slots are busy and the queue is full', async () => {
    const gate = createHashGate({ slots: 1, queue: 2 });
    const { hash, ends } = hashes();
    const taken = [gate.run(hash), gate.run(hash), gate.run(hash)];
    let refusal: ApiError | undefined;
    try {
      gate.check();
    } catch (error) {
      if (error instanceof ApiError) refusal = error;
    }
    expect(refusal?.status).toBe(503);
    expect(refusal?.headers).toEqual({ 'Retry-After': '1' });
    expect(refusal?.body.detail).toMatch(/busy/);
    // The first hash ends and the next waiting one starts: one may wait again.
    await settle();
    ends.shift()!();
    await settle();
    expect(() => gate.check()).not.toThrow();
    while (ends.length > 0) {
      ends.shift()!();
      await settle();
    }
    await Promise.all(taken);
  });

  it('frees the turn of a hash that fails', async () => {
    const gate = createHashGate({ slots: 1, queue: 0 });
    await expect(gate.run(() => Promise.reject(new Error('out of memory')))).rejects.toThrow('out of memory');
    expect(() => gate.check()).not.toThrow();
    await expect(gate.run(() => Promise.resolve('hashed'))).resolves.toBe('hashed');
  });
});

describe('POST token/ under a burst of sign-ins', () => {
  it('answers each 200 or 503 with Retry-After and a JSON detail, and counts no refused one', async () => {
    const server = createTestServer({ hashing: { slots: 1, queue: 2 } });
    const fx = addFixtures(server.db, { now: server.clock.now() });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        postApi(server, 'token/', { username: 'parent', password: fx.users.parent.password }, { address: `192.0.2.${index}` }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    // One hashing, two waiting: three signed in, the others told to come back.
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 503)).toHaveLength(9);
    for (const refused of answers.filter((answer) => answer.status === 503)) {
      expect(refused.headers.get('Retry-After')).toBe('1');
      expect(refused.body).toEqual({ detail: 'The server is busy signing other users in. Please try again in 1 second.' });
    }
    const counted = server.db
      .prepare<[], { count: number }>("SELECT COUNT(*) AS count FROM failed_attempts WHERE key LIKE 'sign-in:%'")
      .get();
    expect(counted?.count).toBe(3);
  });
});
