// The session for the views: the provider, and hooks to read the auth machine's state.
import { useSelector } from '@xstate/react';
import { createContext, use, type ReactNode } from 'react';
import type { SnapshotFrom } from 'xstate';
import { selectImpersonatedAffiliate } from '../../machines/impersonation.ts';
import type { ApiScope } from '../api/client.ts';
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

/** A narrow slice of the auth machine's state. */
export function useAuthSelector<T>(selector: (snapshot: SnapshotFrom<AuthActor>) => T): T {
  return useSelector(useSession().auth, selector);
}

/** The client and the impersonated affiliate, which every cached call is keyed by. */
export function useApiScope(): ApiScope {
  const session = useSession();
  const impersonated = useSelector(session.impersonation, selectImpersonatedAffiliate);
  return { client: session.client, impersonated };
}
