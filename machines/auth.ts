// Sign-in and two-factor authentication: the login gate, the second factor's setup or its code,
// then the signed-in session. States:
//   routing              the login gate, derived from the stored token
//   signedOut            the credentials form ('Email or Username', 'Password'); signingIn
//   setupRequired        2FA required but not configured: 'Email Codes' or 'Authenticator App'
//   totpSetup            settingUp ('Setting up 2FA', 'Retrying...' after a failure), setupError,
//                        ready: QR code (generating / shown / failed) and code form (confirming)
//   emailSetup           sending ('Setting up Email 2FA', 'Retrying...'), setupError,
//                        ready: code form (resending, confirming)
//   totpVerification     'Enter 2FA Code': verifying
//   emailVerification    sending the code on entry ('Retrying...'), sendError ('Email Error'),
//                        ready: 'Check Your Email' (resending, verifying)
//   authenticated        restoring (an expired token waits for its refresh), active;
//                        the token refresh and impersonation machines run as its children, so
//                        signing out ends viewing as an affiliate
import { and, assertEvent, assign, fromPromise, not, sendTo, setup, type NonReducibleUnknown, type SnapshotFrom } from 'xstate';
import { errorText } from '../src/api/client.ts';
import type { AccessClaims } from '../src/domain/access-claims.ts';
import type { EmailSetup, TokenPair, TotpSetup } from '../src/api/schemas.ts';
import { gateFor, isExpired, readClaims, type StoredToken } from '../src/domain/auth-token.ts';
import { impersonationMachine } from './impersonation.ts';
import { tokenRefreshMachine } from './token-refresh.ts';

export const CODE_LENGTH = 6;

export const authMessages = {
  codeMissing: 'Please enter a token',
  deviceMissing: 'Device ID not available',
  sessionExpired: 'Authentication session expired. Please log in again.',
} as const;

export interface AuthContext {
  token: StoredToken | null;
  /** The error line of the current screen; while a failed call is retried, its failure. */
  error: string | null;
  /** The device being set up, and what its setup call answered. */
  deviceId: string | null;
  qrUrl: string | null;
  setupEmail: string | null;
}

export type AuthEvent =
  | { type: 'LOGIN.SUBMIT'; username: string; password: string }
  /** 'Back' on a setup screen: clears the token and any message. */
  | { type: 'BACK' }
  /** 'Logout' and 'Back to Login': clears the token and any message, and records a logout. */
  | { type: 'LOGOUT' }
  | { type: 'SETUP.CHOOSE_APP' }
  | { type: 'SETUP.CHOOSE_EMAIL' }
  | { type: 'SETUP.RETRY' }
  | { type: 'CODE.CONFIRM'; code: string }
  | { type: 'CODE.VERIFY'; code: string }
  | { type: 'EMAIL.RESEND' }
  | { type: 'EMAIL.RETRY' }
  /** Another tab wrote or cleared the stored token. */
  | { type: 'STORAGE.CHANGED'; token: StoredToken | null }
  /** A token got outside the sign-in screens (a new account's, from its invite): any old session ends. */
  | { type: 'SESSION.SIGNED_IN'; token: StoredToken }
  /** A request met a 401: refresh the session (once, however many requests ask). */
  | { type: 'REFRESH.REQUEST' }
  | { type: 'TOKEN.REFRESHED'; tokens: TokenPair }
  | { type: 'SESSION.EXPIRED'; message: string | null };

export interface AuthInput {
  token: StoredToken | null;
}

/** An actor the chart names with its signature; auth.actors.ts (or a test) gives its implementation. */
const provided = <TOutput, TInput = NonReducibleUnknown>(name: string, by = 'the session') =>
  fromPromise<TOutput, TInput>(() => {
    throw new Error(`${name} is provided by ${by}`);
  });

const isUnauthorized = (error: unknown) => typeof error === 'object' && error !== null && 'status' in error && error.status === 401;
const codeOf = (event: AuthEvent) => ('code' in event ? event.code.trim() : '');
const claimsOf = (token: StoredToken | null) => (token ? readClaims(token.access) : null);
const outputOf = <TOutput>({ event }: { event: { output: TOutput } }) => event.output;

/** A 2FA call answered 401: the partial token expired or was revoked. Back to login, saying so. */
const sessionExpired = {
  guard: 'isUnauthorized',
  target: '#auth.signedOut',
  actions: ['clearSession', 'persistToken', { type: 'setError', params: authMessages.sessionExpired }],
} as const;
/** A failed call's text on the error line. */
const showFailure = { type: 'setError', params: ({ event }: { event: { error: unknown } }) => errorText(event.error) } as const;
/** A failed 2FA call: the session's end on a 401, else its text on the error line at `target`. */
const failTo = <TTarget extends string>(target: TTarget) => [sessionExpired, { target, actions: showFailure }] as const;
/** Leaving the signed-in app: the dataLayer forgets the user. */
const clearTrackedUser = { type: 'track', params: { user_id: null } } as const;

/** A new account signed in: whatever session there was ends, its token stored, the login gate follows it. */
const signInAnew = { target: '#auth.routing', actions: ['clearSession', 'storeFromStorage', 'persistToken'] } as const;

/** A 2FA setup's call: its answer (the device) leads to the code form; a failure to Retry. */
const setupCall = <TSrc extends 'setupTotp' | 'setupEmail', TStore extends 'storeTotpSetup' | 'storeEmailSetup'>(
  src: TSrc,
  store: TStore,
) =>
  ({
    tags: ['pending'],
    invoke: { id: src, src, onDone: { target: 'ready', actions: { type: store, params: outputOf } }, onError: failTo('setupError') },
  }) as const;

/** 'Confirm' on a setup's code form: a blank code, or no device, stays on the form and says so. */
const confirmCode = [
  { guard: 'isCodeBlank', actions: { type: 'setError', params: authMessages.codeMissing } },
  { guard: not('hasDeviceId'), actions: { type: 'setError', params: authMessages.deviceMissing } },
  { target: 'confirming', actions: 'clearError' },
] as const;
const codeOnly = ({ event }: { event: AuthEvent }) => ({ code: codeOf(event) });
const codeAndDevice = ({ context, event }: { context: AuthContext; event: AuthEvent }) => ({
  code: codeOf(event),
  deviceId: context.deviceId ?? '',
});
/**
 * A code's call: a setup's confirmation, or token/verify/ (whose success the dataLayer records with
 * the second factor's method). Its verified token is stored, the username being the token's, and
 * the app opens; a refused code stays on the form, saying why.
 */
const codeCall = <TSrc extends 'confirmTotp' | 'confirmEmailSetup' | 'verifyTotp' | 'verifyEmailCode', TInput>(
  src: TSrc,
  input: TInput,
  method?: 'totp' | 'email',
) =>
  ({
    tags: ['pending'],
    invoke: {
      id: src,
      src,
      input,
      onDone: {
        target: '#auth.authenticated',
        actions: [
          { type: 'storeVerified', params: outputOf },
          'persistToken',
          ...(method ? [{ type: 'track', params: { event: 'login_2fa_success', method } } as const] : []),
        ],
      },
      onError: failTo('idle'),
    },
  }) as const;

/** 'Resend Email': token/send-email/ sends a new code (during a setup, for the same device). */
const resendEmail = { target: 'resending', actions: 'clearError' } as const;
const resending = {
  tags: ['pending'],
  invoke: { id: 'resendEmail', src: 'sendLoginEmail', onDone: 'idle', onError: failTo('idle') },
} as const;

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    input: {} as AuthInput,
    events: {} as AuthEvent,
    children: {} as { tokenRefresh: 'tokenRefresh'; impersonation: 'impersonation' },
  },
  actors: {
    login: provided<TokenPair & { username: string }, { username: string; password: string }>('login'),
    setupTotp: provided<TotpSetup>('setupTotp'),
    generateQrCode: provided<void, { url: string }>('generateQrCode', 'the view'),
    confirmTotp: provided<TokenPair, { code: string; deviceId: string }>('confirmTotp'),
    setupEmail: provided<EmailSetup>('setupEmail'),
    confirmEmailSetup: provided<TokenPair, { code: string; deviceId: string }>('confirmEmailSetup'),
    sendLoginEmail: provided<void>('sendLoginEmail'),
    verifyTotp: provided<TokenPair, { code: string }>('verifyTotp'),
    verifyEmailCode: provided<TokenPair, { code: string }>('verifyEmailCode'),
    tokenRefresh: tokenRefreshMachine,
    impersonation: impersonationMachine,
  },
  guards: {
    hasNoToken: ({ context }) => gateFor(context.token) === 'credentials',
    needsTwoFactorSetup: ({ context }) => gateFor(context.token) === 'setupRequired',
    needsTotpCode: ({ context }) => gateFor(context.token) === 'totpCode',
    needsEmailCode: ({ context }) => gateFor(context.token) === 'emailCode',
    isAccessExpired: ({ context }) => context.token === null || isExpired(context.token.access, Date.now()),
    isCodeBlank: ({ event }) => codeOf(event) === '',
    hasDeviceId: ({ context }) => context.deviceId !== null,
    isFullCode: ({ event }) => codeOf(event).length === CODE_LENGTH,
    isStorageCleared: ({ event }) => event.type === 'STORAGE.CHANGED' && event.token === null,
    isUnauthorized: ({ event }) => 'error' in event && isUnauthorized(event.error),
    isVerifiedTokenStored: ({ event }) => event.type === 'STORAGE.CHANGED' && gateFor(event.token) === 'app',
  },
  actions: {
    /** Writes context.token to storage (or clears it); provided by the session. */
    persistToken: () => {},
    /** Pushes an analytics event to the dataLayer; provided by the session. */
    track: (_, _params: Record<string, unknown>) => {},
    storeLogin: assign({ token: (_, output: TokenPair & { username: string }) => output, error: null }),
    /** After a code (token/verify/ or a setup's confirmation) the username is the verified token's. */
    storeVerified: assign({
      token: ({ context }, output: TokenPair) => ({
        username: readClaims(output.access)?.username ?? context.token?.username ?? '',
        ...output,
      }),
      error: null,
    }),
    storeRefreshed: assign({
      token: ({ context, event }) => {
        assertEvent(event, 'TOKEN.REFRESHED');
        return { username: context.token?.username ?? '', ...event.tokens };
      },
    }),
    storeFromStorage: assign({
      token: ({ event }) => {
        assertEvent(event, ['STORAGE.CHANGED', 'SESSION.SIGNED_IN']);
        return event.token;
      },
      // The old screen's message does not belong to the one another tab leads to.
      error: null,
    }),
    /** Signed out: the token and any setup go; the error line stays, to say why. */
    forgetSession: assign({ token: null, deviceId: null, qrUrl: null, setupEmail: null }),
    clearSession: assign({ token: null, error: null, deviceId: null, qrUrl: null, setupEmail: null }),
    setError: assign({ error: (_, text: string | null) => text }),
    clearError: assign({ error: null }),
    storeTotpSetup: assign({
      deviceId: (_, setup: TotpSetup) => setup.device_id,
      qrUrl: (_, setup: TotpSetup) => setup.qr_url,
      error: null,
    }),
    storeEmailSetup: assign({
      deviceId: (_, setup: EmailSetup) => setup.device_id,
      setupEmail: (_, setup: EmailSetup) => setup.email,
      error: null,
    }),
    requestRefresh: sendTo('tokenRefresh', { type: 'REFRESH.REQUEST' }),
    forwardToken: sendTo('tokenRefresh', ({ context }) => ({
      type: 'TOKEN.UPDATED' as const,
      tokens: { access: context.token?.access ?? '', refresh: context.token?.refresh ?? '' },
    })),
  },
}).createMachine({
  id: 'auth',
  context: ({ input }) => ({ token: input.token, error: null, deviceId: null, qrUrl: null, setupEmail: null }),
  initial: 'routing',
  on: {
    BACK: { target: '.signedOut', actions: ['clearSession', 'persistToken'] },
    LOGOUT: {
      target: '.signedOut',
      actions: ['clearSession', 'persistToken', { type: 'track', params: { event: 'logout' } }, clearTrackedUser],
    },
    'STORAGE.CHANGED': [
      // Another tab signed out while this one waits for an e-mailed code: its sign-in has expired.
      {
        guard: and(['isStorageCleared', 'needsEmailCode']),
        target: '.signedOut',
        actions: ['clearSession', { type: 'setError', params: authMessages.sessionExpired }],
      },
      { target: '.routing', actions: 'storeFromStorage' },
    ],
    'SESSION.SIGNED_IN': signInAnew,
  },
  states: {
    routing: {
      always: [
        { guard: 'hasNoToken', target: 'signedOut' },
        { guard: 'needsTwoFactorSetup', target: 'setupRequired' },
        { guard: 'needsTotpCode', target: 'totpVerification' },
        { guard: 'needsEmailCode', target: 'emailVerification' },
        { target: 'authenticated' },
      ],
    },

    signedOut: {
      initial: 'idle',
      entry: 'forgetSession',
      states: {
        idle: { on: { 'LOGIN.SUBMIT': { target: 'signingIn', actions: 'clearError' } } },
        signingIn: {
          tags: ['pending'],
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ event }) => {
              assertEvent(event, 'LOGIN.SUBMIT');
              return { username: event.username, password: event.password };
            },
            onDone: {
              target: '#auth.routing',
              actions: [
                { type: 'storeLogin', params: outputOf },
                'persistToken',
                { type: 'track', params: { event: 'login_success', method: 'password' } },
              ],
            },
            // token/ is called without a token: its 401 means rejected credentials, not an expired session.
            onError: { target: 'idle', actions: showFailure },
          },
        },
      },
    },

    setupRequired: {
      on: {
        'SETUP.CHOOSE_APP': { target: 'totpSetup', actions: 'clearError' },
        'SETUP.CHOOSE_EMAIL': { target: 'emailSetup', actions: 'clearError' },
      },
    },

    totpSetup: {
      initial: 'settingUp',
      states: {
        settingUp: setupCall('setupTotp', 'storeTotpSetup'),
        // A retry keeps the failure it answers on context.error until it is answered (selectSetupPhase).
        setupError: { on: { 'SETUP.RETRY': 'settingUp' } },
        ready: {
          type: 'parallel',
          states: {
            qrCode: {
              initial: 'generating',
              states: {
                generating: {
                  invoke: {
                    id: 'generateQrCode',
                    src: 'generateQrCode',
                    input: ({ context }) => ({ url: context.qrUrl ?? '' }),
                    onDone: 'shown',
                    onError: 'failed',
                  },
                },
                shown: {},
                failed: {},
              },
            },
            form: {
              initial: 'idle',
              states: { idle: { on: { 'CODE.CONFIRM': confirmCode } }, confirming: codeCall('confirmTotp', codeAndDevice) },
            },
          },
        },
      },
    },

    emailSetup: {
      initial: 'sending',
      states: {
        sending: setupCall('setupEmail', 'storeEmailSetup'),
        setupError: { on: { 'SETUP.RETRY': 'sending' } },
        ready: {
          initial: 'idle',
          states: {
            idle: { on: { 'EMAIL.RESEND': resendEmail, 'CODE.CONFIRM': confirmCode } },
            resending,
            confirming: codeCall('confirmEmailSetup', codeAndDevice),
          },
        },
      },
    },

    totpVerification: {
      initial: 'idle',
      states: {
        idle: { on: { 'CODE.VERIFY': { guard: not('isCodeBlank'), target: 'verifying', actions: 'clearError' } } },
        verifying: codeCall('verifyTotp', codeOnly, 'totp'),
      },
    },

    emailVerification: {
      initial: 'sending',
      states: {
        sending: {
          tags: ['pending'],
          invoke: {
            id: 'sendLoginEmail',
            src: 'sendLoginEmail',
            onDone: { target: 'ready', actions: 'clearError' },
            onError: failTo('sendError'),
          },
        },
        sendError: { on: { 'EMAIL.RETRY': 'sending' } },
        ready: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'EMAIL.RESEND': resendEmail,
                'CODE.VERIFY': { guard: 'isFullCode', target: 'verifying', actions: 'clearError' },
              },
            },
            resending,
            verifying: codeCall('verifyEmailCode', codeOnly, 'email'),
          },
        },
      },
    },

    authenticated: {
      entry: { type: 'track', params: ({ context }) => ({ user_id: claimsOf(context.token)?.user_id ?? null }) },
      invoke: [
        {
          id: 'tokenRefresh',
          src: 'tokenRefresh',
          input: ({ context }) => ({ tokens: { access: context.token?.access ?? '', refresh: context.token?.refresh ?? '' } }),
        },
        { id: 'impersonation', src: 'impersonation' },
      ],
      initial: 'checking',
      on: {
        'REFRESH.REQUEST': { actions: 'requestRefresh' },
        'TOKEN.REFRESHED': { target: '.active', actions: ['storeRefreshed', 'persistToken'] },
        'SESSION.EXPIRED': {
          target: 'signedOut',
          actions: ['clearSession', 'persistToken', { type: 'setError', params: ({ event }) => event.message }, clearTrackedUser],
        },
        'STORAGE.CHANGED': [
          { guard: 'isVerifiedTokenStored', target: '.checking', actions: ['storeFromStorage', 'forwardToken'] },
          { target: 'routing', actions: ['storeFromStorage', clearTrackedUser] },
        ],
        'SESSION.SIGNED_IN': { ...signInAnew, actions: [...signInAnew.actions, clearTrackedUser] },
      },
      states: {
        checking: { always: [{ guard: 'isAccessExpired', target: 'restoring' }, { target: 'active' }] },
        restoring: { tags: ['pending'] },
        active: {},
      },
    },
  },
});

export type AuthSnapshot = SnapshotFrom<typeof authMachine>;

/** A call in flight: signing in, a 2FA call, or a session waiting for its refresh. */
export const selectIsPending = (snapshot: AuthSnapshot): boolean => snapshot.hasTag('pending');

/** Viewing as an affiliate: the signed-in state's child, none while signed out. */
export const selectImpersonation = (snapshot: AuthSnapshot) => snapshot.children.impersonation ?? null;

/** The claims of the stored access token, or null when there is none. */
export const selectClaims = (snapshot: AuthSnapshot): AccessClaims | null => claimsOf(snapshot.context.token);

/**
 * Where a screen that opens with a call stands (2FA setup, the login code e-mail): its call
 * running, failed, running again after a failure (that failure still in context), or answered.
 */
export type SetupPhase = 'starting' | 'failed' | 'retrying' | 'ready';
export function selectSetupPhase(snapshot: AuthSnapshot): SetupPhase {
  const is = (value: Parameters<AuthSnapshot['matches']>[0]) => snapshot.matches(value);
  if (is({ totpSetup: 'ready' }) || is({ emailSetup: 'ready' }) || is({ emailVerification: 'ready' })) return 'ready';
  if (is({ totpSetup: 'setupError' }) || is({ emailSetup: 'setupError' }) || is({ emailVerification: 'sendError' })) return 'failed';
  return snapshot.context.error === null ? 'starting' : 'retrying';
}
