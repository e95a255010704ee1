import { act, renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import useSWR, { SWRConfig } from 'swr';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ApiError } from './client.ts';
import { retryDelay } from '../domain/retry-policy.ts';
import { createGarbageCollector, GC_TIME_MS, isFinalError, isRetryable, swrConfiguration } from './swr.ts';

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
      const cache = new Map<string, unknown>([
        ['a', 1],
        ['b', 2],
      ]);
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

  it('retries after 1000, 2000 and 4000 ms, and tells a failure that a retry follows from the last one', () => {
    vi.useFakeTimers();
    try {
      const { onErrorRetry } = swrConfiguration(new Map() as never);
      const revalidate = vi.fn(() => Promise.resolve(true));
      const config = { errorRetryCount: 3 } as never;
      const failures = [1, 2, 3, 4].map((attempt) => new ApiError(`attempt ${attempt}`, 'http', 502));
      failures.forEach((error, index) => {
        onErrorRetry?.(error, 'key', config, revalidate, { retryCount: index + 1, dedupe: true });
        if (index < 3) {
          vi.advanceTimersByTime(retryDelay(index + 1) - 1);
          expect(revalidate).toHaveBeenCalledTimes(index);
          vi.advanceTimersByTime(1);
          expect(revalidate).toHaveBeenLastCalledWith({ retryCount: index + 1 });
        }
      });
      vi.runAllTimers();
      expect(revalidate).toHaveBeenCalledTimes(3);
      expect(failures.map(isFinalError)).toEqual([false, false, false, true]);
      expect(isFinalError(new ApiError('x', 'http', 404))).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks again at once, once the connection is back, what failed offline: once per key, and nothing that loaded', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    onTestFinished(() => onLine.mockRestore());
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    onTestFinished(() => visibility.mockRestore());
    let offline = true;
    const lists = vi.fn(() =>
      offline ? Promise.reject(new ApiError('Network Error: the server could not be reached.', 'network')) : Promise.resolve('lists'),
    );
    const loaded = vi.fn(() => Promise.resolve('loaded'));
    const config = swrConfiguration(new Map() as never);
    const wrapper = ({ children }: { children: ReactNode }) => createElement(SWRConfig, { value: config }, children);
    const failure: unknown = expect.any(ApiError);
    const { result } = renderHook(
      () =>
        [useSWR<string, Error>('lists', lists), useSWR<string, Error>('lists', lists), useSWR<string, Error>('loaded', loaded)] as const,
      { wrapper },
    );
    await waitFor(() => expect(result.current.map((hook) => hook.error ?? hook.data)).toEqual([failure, failure, 'loaded']));
    expect([lists, loaded].map((fetcher) => fetcher.mock.calls.length)).toEqual([1, 1]);

    onLine.mockReturnValue(true);
    offline = false;
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(result.current.map((hook) => hook.data)).toEqual(['lists', 'lists', 'loaded']));
    expect([lists, loaded].map((fetcher) => fetcher.mock.calls.length)).toEqual([2, 1]);
  });
});
