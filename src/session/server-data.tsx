// Server data for the views: SWR with the cache rules of src/api/swr.ts (fresh 5 minutes). One
// cache per sign-in, shared by every view (dashboard, reports, the header's affiliate selector),
// so that whoever signs in next on the same tab never sees what the last sign-in had cached;
// within it, keys carry the impersonated affiliate.
// SWR keeps its bookkeeping for a cache (listeners, calls in flight) until the SWRConfig that
// first used it unmounts; with one cache under several providers (the pages, the header) that
// would leave the others without it, so the cache's bookkeeping is set up once, when it is made.
// Only lazily loaded views import this module, so SWR stays out of what /login downloads.
import { useMemo, type ReactNode } from 'react';
import { SWRConfig, type State, type SWRConfiguration } from 'swr';
import { initCache } from 'swr/_internal';
import { selectImpersonation } from '../../machines/auth.ts';
import { selectUserKey } from '../../machines/auth.selectors.ts';
import { selectImpersonatedAffiliate } from '../../machines/impersonation.ts';
import type { ApiScope } from '../api/client.ts';
import { swrConfiguration } from '../api/swr.ts';
import type { Session } from './session.ts';
import { useActorSelector, useAuthSelector, useSession, type ObservableActor } from './session-context.tsx';

const perSession = new WeakMap<Session, { user: string; value: SWRConfiguration }>();

function configurationFor(session: Session, user: string): SWRConfiguration {
  let entry = perSession.get(session);
  if (entry?.user !== user) {
    const cache = new Map<string, State>();
    const value = swrConfiguration(cache);
    initCache(cache, value);
    entry = { user, value };
    perSession.set(session, entry);
    // The cache ends with its user's sign-in (Logout, a 401, another user): the next sign-in,
    // the same user's included, starts with nothing cached, not with the error that ended it.
    const ended = session.auth.subscribe((snapshot) => {
      if (selectUserKey(snapshot) === user) return;
      ended.unsubscribe();
      cache.clear();
      if (perSession.get(session)?.value === value) perSession.delete(session);
    });
  }
  return entry.value;
}

export function ServerDataProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const user = useAuthSelector(selectUserKey);
  const value = useMemo(() => configurationFor(session, user), [session, user]);
  return (
    // A new user gets a new provider: SWR reads its cache once, when the provider mounts.
    <SWRConfig key={user} value={value}>
      {children}
    </SWRConfig>
  );
}

/** Signed out there is no one to view the portal as. */
const signedOut: ObservableActor<undefined> = { getSnapshot: () => undefined, subscribe: () => ({ unsubscribe() {} }) };

/** The affiliate a superuser views the portal as, or null: the own view, or signed out. */
export function useImpersonatedAffiliate(): string | null {
  const impersonation = useAuthSelector(selectImpersonation);
  return useActorSelector<ReturnType<NonNullable<typeof impersonation>['getSnapshot']> | undefined, string | null>(
    impersonation ?? signedOut,
    selectImpersonatedAffiliate,
  );
}

/** The client and the impersonated affiliate, which every cached call is keyed by. */
export function useApiScope(): ApiScope {
  const session = useSession();
  return { client: session.client, impersonated: useImpersonatedAffiliate() };
}
