// The Reports screen's server data: SWR with the cache rules of src/api/swr.ts (spec section 9),
// inside this lazily loaded chunk. The configuration is created once per signed-in user of a
// session rather than once per module, so that whoever signs in next in the same tab never sees
// the previous user's cached reports (the shared queryCache is keyed by the impersonated affiliate
// only). SWR reports every failed attempt, retries included; `useIsFinalError` tells which failures
// no retry will follow, so that the page keeps its loading state while a retry is still coming.
import { createContext, use, useMemo, type ReactNode } from 'react';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { isRetryable, MAX_RETRIES, swrConfiguration } from '../../api/swr.ts';
import type { Session } from '../../app/session.ts';
import { useAuthSelector, useSession } from '../../app/session-context.tsx';
import { readClaims } from '../../domain/auth-token.ts';

interface ReportsData {
  value: SWRConfiguration;
  isFinal: (error: unknown) => boolean;
}

const FinalErrorContext = createContext<(error: unknown) => boolean>(() => true);

function reportsData(base: SWRConfiguration): ReportsData {
  const retrying = new WeakSet<object>();
  return {
    value: {
      ...base,
      onErrorRetry: (error: unknown, key, config, revalidate, options) => {
        // The test of swrConfiguration's own onErrorRetry: a retryable failure within the count.
        if (isRetryable(error) && options.retryCount <= (config.errorRetryCount ?? MAX_RETRIES) && typeof error === 'object' && error !== null) {
          retrying.add(error);
        }
        base.onErrorRetry?.(error, key, config, revalidate, options);
      },
    },
    isFinal: (error) => !(typeof error === 'object' && error !== null && retrying.has(error)),
  };
}

const perSession = new WeakMap<Session, { user: string; data: ReportsData }>();

function dataFor(session: Session, user: string): ReportsData {
  let entry = perSession.get(session);
  if (entry?.user !== user) {
    entry = { user, data: reportsData(swrConfiguration(new Map())) };
    perSession.set(session, entry);
  }
  return entry.data;
}

export function ReportsDataProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const user = useAuthSelector((snapshot) => {
    const access = snapshot.context.token?.access;
    const claims = access ? readClaims(access) : null;
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
