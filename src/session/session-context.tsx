// The session for the views: the provider, and hooks to read the auth machine's state (the
// impersonated affiliate's, for the lazily loaded views: server-data.tsx).
import { createContext, use, useCallback, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { SnapshotFrom } from 'xstate';
import type { AuthActor, Session } from './session.ts';

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}

export interface ObservableActor<TSnapshot> {
  getSnapshot(): TSnapshot;
  subscribe(observer: () => void): { unsubscribe(): void };
}

/**
 * The slice of an actor's current state, asked for again and again by React, which must get the
 * same answer while the actor has not moved: computed once per snapshot.
 */
function sliceOf<TSnapshot, T>(actor: ObservableActor<TSnapshot>, selector: (snapshot: TSnapshot) => T): () => T {
  let last: { snapshot: TSnapshot; slice: T } | null = null;
  return () => {
    const snapshot = actor.getSnapshot();
    if (last === null || last.snapshot !== snapshot) last = { snapshot, slice: selector(snapshot) };
    return last.slice;
  };
}

/**
 * A slice of an actor's state; the view renders again only when the slice changes. What
 * @xstate/react's useSelector does, on React's own hook: the sign-in screens load without it.
 */
export function useActorSelector<TSnapshot, T>(actor: ObservableActor<TSnapshot>, selector: (snapshot: TSnapshot) => T): T {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const subscription = actor.subscribe(onChange);
      return () => subscription.unsubscribe();
    },
    [actor],
  );
  const getSlice = useMemo(() => sliceOf(actor, selector), [actor, selector]);
  return useSyncExternalStore(subscribe, getSlice, getSlice);
}

/** A narrow slice of the auth machine's state. */
export function useAuthSelector<T>(selector: (snapshot: SnapshotFrom<AuthActor>) => T): T {
  return useActorSelector(useSession().auth, selector);
}
