// Server data for the views: SWR with the cache rules of src/api/swr.ts (fresh 5 minutes). One
// cache per signed-in user of a session, shared by every view (dashboard, reports, the header's
// affiliate selector), so that whoever signs in next on the same tab never sees the previous
// user's cached data; within it, keys carry the impersonated affiliate. SWR reports every failed
// attempt, retries included; `useIsFinalError` tells which failures no retry will follow, so a
// view keeps its loading state while a retry is still coming (up to 3 retries).
// Data that holds something outside the cache (the dashboard worker's lists) is released when
// the cache drops or replaces it, and when the cache itself is left for another user's.
// SWR keeps its bookkeeping for a cache (listeners, calls in flight) until the SWRConfig that
// first used it unmounts; with one cache under several providers (the pages, the header) that
// would leave the others without it, so the cache's bookkeeping is set up once, when it is made.
// Only lazily loaded views import this module, so SWR stays out of what /login downloads.
import { createContext, use, useMemo, type ReactNode } from 'react';
import { SWRConfig, type State, type SWRConfiguration } from 'swr';
import { initCache } from 'swr/_internal';
import { selectClaims } from '../../machines/auth.ts';
import { release } from '../api/releasable.ts';
import { isRetryable, swrConfiguration } from '../api/swr.ts';
import { MAX_RETRIES } from '../domain/retry-policy.ts';
import type { Session } from './session.ts';
import { useAuthSelector, useSession } from './session-context.tsx';

interface ServerData {
  value: SWRConfiguration;
  /** False while SWR will retry after this failure. */
  isFinal: (error: unknown) => boolean;
}

const FinalErrorContext = createContext<(error: unknown) => boolean>(() => true);

/** The cache rules, plus: failures a retry will follow are remembered. */
export function serverData(base: SWRConfiguration): ServerData {
  const retrying = new WeakSet<object>();
  return {
    value: {
      ...base,
      onErrorRetry: (error: unknown, key, config, revalidate, options) => {
        // The same test as swrConfiguration's onErrorRetry: a retryable failure within the count.
        if (isRetryable(error) && options.retryCount <= (config.errorRetryCount ?? MAX_RETRIES) && typeof error === 'object' && error !== null) {
          retrying.add(error);
        }
        base.onErrorRetry?.(error, key, config, revalidate, options);
      },
    },
    isFinal: (error) => !(typeof error === 'object' && error !== null && retrying.has(error)),
  };
}

/** SWR's cache, releasing the data it lets go. */
export class ReleasingCache extends Map<string, State> {
  override set(key: string, value: State): this {
    const before: unknown = this.get(key)?.data;
    super.set(key, value);
    if (before !== value.data) release(before);
    return this;
  }

  override delete(key: string): boolean {
    const before: unknown = this.get(key)?.data;
    const deleted = super.delete(key);
    release(before);
    return deleted;
  }

  releaseAll(): void {
    for (const value of this.values()) release(value.data);
    super.clear();
  }
}

const perSession = new WeakMap<Session, { user: string; cache: ReleasingCache; data: ServerData }>();

function dataFor(session: Session, user: string): ServerData {
  let entry = perSession.get(session);
  if (entry?.user !== user) {
    entry?.cache.releaseAll();
    const cache = new ReleasingCache();
    const configuration = swrConfiguration(cache);
    initCache(cache, configuration);
    entry = { user, cache, data: serverData(configuration) };
    perSession.set(session, entry);
  }
  return entry.data;
}

export function ServerDataProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const user = useAuthSelector((snapshot) => {
    const claims = selectClaims(snapshot);
    return claims ? `${claims.user_id}:${claims.username}` : '';
  });
  const data = useMemo(() => dataFor(session, user), [session, user]);
  return (
    // A new user gets a new provider: SWR reads its cache once, when the provider mounts.
    <SWRConfig key={user} value={data.value}>
      <FinalErrorContext value={data.isFinal}>{children}</FinalErrorContext>
    </SWRConfig>
  );
}

/** Whether a failure is the last word: not retryable, or the retries are used up. */
export function useIsFinalError(): (error: unknown) => boolean {
  return use(FinalErrorContext);
}
