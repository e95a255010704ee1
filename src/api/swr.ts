// How server data is cached (spec section 9): fresh for 5 minutes (no refetch before, no refetch
// on focus), unused entries dropped 5 minutes after their last user leaves, and 3 retries with
// 1000 ms doubling to at most 30000 ms, only for failures a retry can mend (5xx, network): a 4xx
// is final, and a 401 has already ended the session. SWR's own options do most of it; below is
// only what they cannot do, each with its reason.
import { useEffect } from 'react';
import { unstable_serialize, type Cache, type Middleware, type SWRConfiguration } from 'swr';
import { GC_TIME_MS, MAX_RETRIES, retryDelay, STALE_TIME_MS } from '../domain/retry-policy.ts';
import { useBackOnline } from '../components/use-online.ts';
import { ApiError } from './client.ts';

export { GC_TIME_MS, STALE_TIME_MS };

export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.kind === 'network' || (error.kind === 'http' && error.status !== null && error.status >= 500);
}

// Kept: SWR's state is the same after a failure it will retry and after its last one; only
// onErrorRetry knows which is which.
const retried = new WeakSet<object>();

/** Whether a failure is the last word: not retryable, or the retries are used up. */
export function isFinalError(error: unknown): boolean {
  return !(typeof error === 'object' && error !== null && retried.has(error));
}

/**
 * Tracks who uses each cache entry, and drops it GC_TIME_MS after the last user left.
 * Kept: SWR never drops a cache entry, and only its hooks know when a key is in use.
 */
export function createGarbageCollector(cache: Cache, schedule: typeof setTimeout = setTimeout, cancel: typeof clearTimeout = clearTimeout) {
  const users = new Map<string, number>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();

  const acquire = (key: string) => {
    users.set(key, (users.get(key) ?? 0) + 1);
    const timer = timers.get(key);
    if (timer !== undefined) cancel(timer);
    timers.delete(key);
  };
  const release = (key: string) => {
    const left = (users.get(key) ?? 1) - 1;
    if (left > 0) {
      users.set(key, left);
      return;
    }
    users.delete(key);
    timers.set(
      key,
      schedule(() => {
        timers.delete(key);
        if (!users.has(key)) cache.delete(key);
      }, GC_TIME_MS),
    );
  };

  const middleware: Middleware = (useSWRNext) => (key, fetcher, config) => {
    const serialized = unstable_serialize(key);
    useEffect(() => {
      if (!serialized) return undefined;
      acquire(serialized);
      return () => release(serialized);
    }, [serialized]);
    return useSWRNext(key, fetcher, config);
  };

  return { middleware, acquire, release };
}

/**
 * Asks again at once, when the connection is back, what failed meanwhile; a hidden tab too. A key
 * that several hooks use is asked once: the first ask marks it as being fetched.
 * Kept: SWR's revalidateOnReconnect waits for a visible tab and revalidates in a timer, and
 * until then the page would show the failure.
 */
const askAgainOnline =
  (cache: Cache): Middleware =>
  (useSWRNext) =>
  (key, fetcher, config) => {
    const swr = useSWRNext(key, fetcher, config);
    const failed = swr.error !== undefined;
    const serialized = unstable_serialize(key);
    useBackOnline(() => {
      if (failed && !cache.get(serialized)?.isValidating) void swr.mutate();
    });
    return swr;
  };

export function swrConfiguration(cache: Cache): SWRConfiguration & { provider: () => Cache } {
  return {
    provider: () => cache,
    use: [createGarbageCollector(cache).middleware, askAgainOnline(cache)],
    dedupingInterval: STALE_TIME_MS,
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    // Offline, a retry would get no answer either: the page asks again once the connection is back.
    shouldRetryOnError: (error: unknown) => isRetryable(error) && (typeof navigator === 'undefined' || navigator.onLine),
    errorRetryCount: MAX_RETRIES,
    // Kept: SWR's own waits are random (0.5 to 1.5 times a doubling interval), not 1, 2, 4 s.
    onErrorRetry: (error: unknown, _key, config, revalidate, { retryCount }) => {
      if (retryCount > (config.errorRetryCount ?? MAX_RETRIES)) return;
      if (typeof error === 'object' && error !== null) retried.add(error);
      setTimeout(() => void revalidate({ retryCount }), retryDelay(retryCount));
    },
  };
}
