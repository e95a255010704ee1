// Token refresh scheduling: the access token is refreshed 60 s before it expires; a child of the
// auth machine while a verified session lasts. States:
//   checking    with under 60 s left, or expired, refresh at once; otherwise schedule
//   scheduled   waiting until 60 s before expiry (or until a request meets a 401)
//   refreshing  the one refresh call in flight; a missing new refresh token keeps the old one
//   retrying    the server could not be reached: try again after 1 s, 2 s, 4 s
//   failed      the refresh failed (an HTTP error, or unreachable after 3 retries): the parent
//               clears the token and returns to login
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import { isUnauthorizedError } from '../src/api/client.ts';
import type { RefreshResponse, TokenPair } from '../src/api/schemas.ts';
import { msUntilRefresh } from '../src/domain/auth-token.ts';
import { MAX_RETRIES, retryDelay } from '../src/domain/retry-policy.ts';

/** After a refresh, the next one waits at least this long, even for a very short-lived token. */
export const MIN_REFRESH_INTERVAL_MS = 5_000;
/** setTimeout's longest delay (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface TokenRefreshContext {
  tokens: TokenPair;
  /** Set after a refresh: the next one then waits at least MIN_REFRESH_INTERVAL_MS. */
  justRefreshed: boolean;
  /** Retries of the refresh in flight that could not reach the server. */
  retries: number;
}

export type TokenRefreshEvent =
  /** A request met a 401: refresh now, unless a refresh is already in flight. */
  | { type: 'REFRESH.REQUEST' }
  /** The session has a new token from elsewhere (another tab). */
  | { type: 'TOKEN.UPDATED'; tokens: TokenPair };

/** What the parent hears. */
export type TokenRefreshParentEvent = { type: 'TOKEN.REFRESHED'; tokens: TokenPair } | { type: 'SESSION.EXPIRED'; message: string | null };

export const tokenRefreshMachine = setup({
  types: {
    context: {} as TokenRefreshContext,
    input: {} as { tokens: TokenPair },
    events: {} as TokenRefreshEvent,
  },
  actors: {
    refreshToken: fromPromise<RefreshResponse, { refresh: string }>(() => {
      throw new Error('refreshToken is provided by the session');
    }),
  },
  guards: {
    isTokenExpiring: ({ context }) => msUntilRefresh(context.tokens.access, Date.now()) <= 0,
    /** No answer at all (no HTTP status), and retries left: an HTTP error answer is final. */
    canRetryUnreachable: ({ context, event }) => context.retries < MAX_RETRIES && 'error' in event && isUnreachable(event.error),
  },
  delays: {
    refreshDelay: ({ context }) =>
      Math.min(
        Math.max(msUntilRefresh(context.tokens.access, Date.now()), context.justRefreshed ? MIN_REFRESH_INTERVAL_MS : 0),
        MAX_TIMER_MS,
      ),
    retryDelay: ({ context }) => retryDelay(context.retries),
  },
  actions: {
    storeRefreshed: assign({
      tokens: ({ context }, output: RefreshResponse) => ({
        access: output.access,
        refresh: output.refresh ?? context.tokens.refresh,
      }),
      justRefreshed: true,
      retries: 0,
    }),
    countRetry: assign({ retries: ({ context }) => context.retries + 1 }),
    storeUpdated: assign({
      tokens: ({ event }) => {
        assertEvent(event, 'TOKEN.UPDATED');
        return event.tokens;
      },
      justRefreshed: false,
      retries: 0,
    }),
    notifyRefreshed: sendParent(({ context }): TokenRefreshParentEvent => ({ type: 'TOKEN.REFRESHED', tokens: context.tokens })),
    notifyExpired: sendParent((_, error: unknown): TokenRefreshParentEvent => ({
      type: 'SESSION.EXPIRED',
      message: refreshFailureMessage(error),
    })),
  },
}).createMachine({
  id: 'tokenRefresh',
  context: ({ input }) => ({ tokens: input.tokens, justRefreshed: false, retries: 0 }),
  initial: 'checking',
  on: {
    'TOKEN.UPDATED': { target: '.checking', actions: 'storeUpdated' },
  },
  states: {
    checking: {
      always: [{ guard: 'isTokenExpiring', target: 'refreshing' }, { target: 'scheduled' }],
    },
    scheduled: {
      after: { refreshDelay: 'refreshing' },
      on: { 'REFRESH.REQUEST': 'refreshing' },
    },
    refreshing: {
      tags: ['pending'],
      invoke: {
        id: 'refresh',
        src: 'refreshToken',
        input: ({ context }) => ({ refresh: context.tokens.refresh }),
        onDone: {
          target: 'scheduled',
          actions: [{ type: 'storeRefreshed', params: ({ event }) => event.output }, 'notifyRefreshed'],
        },
        onError: [
          { guard: 'canRetryUnreachable', target: 'retrying', actions: 'countRetry' },
          {
            target: 'failed',
            actions: { type: 'notifyExpired', params: ({ event }: { event: { error: unknown } }) => event.error },
          },
        ],
      },
    },
    retrying: {
      tags: ['pending'],
      after: { retryDelay: 'refreshing' },
    },
    failed: { type: 'final' },
  },
});

/** A call that got no answer: the client's network error (see ApiError's kind). */
function isUnreachable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'kind' in error && error.kind === 'network';
}

/** A 401 ends the session quietly; other failures say why ('Token refresh failed: {status}'). */
function refreshFailureMessage(error: unknown): string | null {
  if (isUnauthorizedError(error)) return null;
  return error instanceof Error ? error.message : null;
}
