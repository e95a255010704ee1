import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './client.ts';
import { retryDelay } from '../domain/retry-policy.ts';
import { createGarbageCollector, GC_TIME_MS, isRetryable } from './swr.ts';

describe('the query cache rules (spec section 9)', () => {
  it('retries 5xx answers and network failures, never a 4xx or a bad response', () => {
    expect(isRetryable(new ApiError('x', 'http', 500))).toBe(true);
    expect(isRetryable(new ApiError('x', 'http', 503))).toBe(true);
    expect(isRetryable(new ApiError('x', 'network'))).toBe(true);
    expect(isRetryable(new ApiError('x', 'http', 400))).toBe(false);
    expect(isRetryable(new ApiError('x', 'http', 401))).toBe(false);
    expect(isRetryable(new ApiError('x', 'http', 403))).toBe(false);
    expect(isRetryable(new ApiError('x', 'schema', 200))).toBe(false);
    expect(isRetryable(new Error('x'))).toBe(false);
  });

  it('waits 1000 ms doubled per attempt, capped at 30000 ms', () => {
    expect([1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000]);
  });

  it('drops an entry 5 minutes after its last user leaves, and keeps it while one returns in time', () => {
    vi.useFakeTimers();
    try {
      const cache = new Map<string, unknown>([['a', 1], ['b', 2]]);
      const { acquire, release } = createGarbageCollector(cache as never);
      acquire('a');
      acquire('a');
      acquire('b');
      release('a');
      release('b');
      vi.advanceTimersByTime(GC_TIME_MS);
      expect(cache.has('a')).toBe(true); // one user left
      expect(cache.has('b')).toBe(false);
      release('a');
      vi.advanceTimersByTime(GC_TIME_MS - 1);
      acquire('a'); // back in time
      vi.advanceTimersByTime(GC_TIME_MS);
      expect(cache.has('a')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
