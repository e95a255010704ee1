// The session: the auth actor (machines/auth.ts, given its side effects) and the API client that
// every call goes through, wired together. The client reads the token from the actor; a 401
// asks the actor's token refresh machine for a new token, one refresh however many ask.
import { createActor, waitFor, type Actor } from 'xstate';
import { provideAuth } from '../../machines/auth.actors.ts';
import { impersonationMachine } from '../../machines/impersonation.ts';
import { createAuthApi } from '../api/auth.ts';
import type { RefreshResponse } from '../api/schemas.ts';
import { gateFor, msUntilRefresh } from '../domain/auth-token.ts';
import { createApiClient, type ApiClient } from '../api/client.ts';
import type { TokenStorage } from './token-storage.ts';

export type AuthActor = Actor<ReturnType<typeof provideAuth>>;
export type ImpersonationActor = Actor<typeof impersonationMachine>;

export interface Session {
  auth: AuthActor;
  client: ApiClient;
  /** The affiliate a superuser views the portal as, sent as impersonate_affiliate. */
  impersonation: ImpersonationActor;
  start(): void;
  stop(): void;
}

export interface SessionOptions {
  baseUrl: string;
  storage: TokenStorage;
  track: (entry: Record<string, unknown>) => void;
  loadQrCode: () => Promise<void>;
  fetch?: typeof fetch;
}

export function createSession(options: SessionOptions): Session {
  let pendingRefresh: Promise<string | null> | null = null;
  let unsubscribe: (() => void) | null = null;

  const currentAccess = () => auth.getSnapshot().context.token?.access ?? null;

  /** One refresh at a time; a request refused with an old token just retries with the new one. */
  function refreshAccessToken(refused: string | null): Promise<string | null> {
    const snapshot = auth.getSnapshot();
    if (!snapshot.matches('authenticated')) return Promise.resolve(null);
    const access = currentAccess();
    if (access !== null && access !== refused) return Promise.resolve(access);
    if (!pendingRefresh) {
      pendingRefresh = waitFor(auth, (s) => !s.matches('authenticated') || s.context.token?.access !== refused)
        .then((s) => (s.matches('authenticated') ? (s.context.token?.access ?? null) : null))
        .finally(() => {
          pendingRefresh = null;
        });
      auth.send({ type: 'REFRESH.REQUEST' });
    }
    return pendingRefresh;
  }

  const client = createApiClient({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    getAccessToken: currentAccess,
    getImpersonatedAffiliate: () => impersonation.getSnapshot().context.affiliateId,
    refreshAccessToken,
  });

  const authApi = createAuthApi(client);

  /**
   * One refresh at a time across the tabs of this browser (Web Locks, where there are any): a
   * refresh token works once, so two tabs refreshing together would sign each other out. Inside
   * the lock a tab first looks at storage: when another tab has just stored a fresh session, it
   * takes that one instead of spending its own, already used, refresh token.
   */
  function refreshAcrossTabs(refresh: string): Promise<RefreshResponse> {
    const run = async (): Promise<RefreshResponse> => {
      const stored = options.storage.read();
      if (stored && stored.refresh !== refresh && gateFor(stored) === 'app' && msUntilRefresh(stored.access, Date.now()) > 0) {
        return { access: stored.access, refresh: stored.refresh };
      }
      const answer = await authApi.refresh(refresh);
      // Signed out meanwhile (Logout here, or another tab cleared or replaced the record): the
      // answer must not bring the old session back. A session another tab stored is taken.
      const now = options.storage.read();
      if (!auth.getSnapshot().matches('authenticated') || now?.refresh !== stored?.refresh) {
        if (now && gateFor(now) === 'app') return { access: now.access, refresh: now.refresh };
        throw new Error('Signed out during the token refresh');
      }
      const username = auth.getSnapshot().context.token?.username ?? stored?.username ?? '';
      options.storage.write({ username, access: answer.access, refresh: answer.refresh ?? refresh });
      return answer;
    };
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    return locks ? locks.request('affiliate-portal-token-refresh', run) : run();
  }

  const auth: AuthActor = createActor(
    provideAuth({
      api: authApi,
      refresh: refreshAcrossTabs,
      saveToken: (token) => options.storage.write(token),
      track: options.track,
      loadQrCode: options.loadQrCode,
    }),
    { input: { token: options.storage.read() } },
  );

  const impersonation: ImpersonationActor = createActor(impersonationMachine);
  let wasSignedIn = false;

  return {
    auth,
    client,
    impersonation,
    start() {
      impersonation.start();
      auth.start();
      const storage = options.storage.subscribe((token) => auth.send({ type: 'STORAGE.CHANGED', token }));
      wasSignedIn = auth.getSnapshot().matches('authenticated');
      // Signing out ends viewing as an affiliate: the next session starts in its own view.
      const signedIn = auth.subscribe((snapshot) => {
        const now = snapshot.matches('authenticated');
        if (wasSignedIn && !now) impersonation.send({ type: 'IMPERSONATION.CLEAR' });
        wasSignedIn = now;
      });
      unsubscribe = () => {
        storage();
        signedIn.unsubscribe();
      };
    },
    stop() {
      unsubscribe?.();
      auth.stop();
      impersonation.stop();
    },
  };
}
