// Sign-in and two-factor authentication (spec sections 2, 4, 5 and 8). States:
//   routing              the login gate, derived from the stored token
//   signedOut            the credentials form ('Email or Username', 'Password'); signingIn
//   setupRequired        2FA required but not configured: 'Email Codes' or 'Authenticator App'
//   totpSetup            settingUp ('Setting up 2FA'), setupError / retrying ('Retrying...'),
//                        ready: QR code (generating / shown / failed) and code form (confirming)
//   emailSetup           sending ('Setting up Email 2FA'), setupError / retrying,
//                        ready: code form (resending, confirming)
//   totpVerification     'Enter 2FA Code': verifying
//   emailVerification    sending the code on entry, sendError ('Email Error') / retrying,
//                        ready: 'Check Your Email' (resending, verifying)
//   authenticated        restoring (an expired token waits for its refresh), active;
//                        the token refresh machine runs as a child
import { and, assertEvent, assign, fromPromise, not, sendTo, setup } from 'xstate';
import { errorText } from '../src/api/client.ts';
import type { EmailSetup, TokenPair, TotpSetup } from '../src/api/schemas.ts';
import { gateFor, isExpired, readClaims, type StoredToken } from '../src/domain/auth-token.ts';
import { tokenRefreshMachine } from './token-refresh.ts';

export const CODE_LENGTH = 6;

export const authMessages = {
  codeMissing: 'Please enter a token',
  deviceMissing: 'Device ID not available',
  sessionExpired: 'Authentication session expired. Please log in again.',
} as const;

export interface AuthContext {
  token: StoredToken | null;
  /** The error line of the current screen. */
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
  /** A request met a 401: refresh the session (once, however many requests ask). */
  | { type: 'REFRESH.REQUEST' }
  | { type: 'TOKEN.REFRESHED'; tokens: TokenPair }
  | { type: 'SESSION.EXPIRED'; message: string | null };

export interface AuthInput {
  token: StoredToken | null;
}

const isUnauthorized = (error: unknown) =>
  typeof error === 'object' && error !== null && 'status' in error && error.status === 401;
const codeOf = (event: AuthEvent) => ('code' in event ? event.code.trim() : '');

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

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    input: {} as AuthInput,
    events: {} as AuthEvent,
  },
  actors: {
    login: fromPromise<TokenPair & { username: string }, { username: string; password: string }>(() => {
      throw new Error('login is provided by the session');
    }),
    setupTotp: fromPromise<TotpSetup>(() => {
      throw new Error('setupTotp is provided by the session');
    }),
    generateQrCode: fromPromise<void, { url: string }>(() => {
      throw new Error('generateQrCode is provided by the view');
    }),
    confirmTotp: fromPromise<TokenPair, { code: string; deviceId: string }>(() => {
      throw new Error('confirmTotp is provided by the session');
    }),
    setupEmail: fromPromise<EmailSetup>(() => {
      throw new Error('setupEmail is provided by the session');
    }),
    confirmEmailSetup: fromPromise<TokenPair, { code: string; deviceId: string }>(() => {
      throw new Error('confirmEmailSetup is provided by the session');
    }),
    sendLoginEmail: fromPromise<void>(() => {
      throw new Error('sendLoginEmail is provided by the session');
    }),
    verifyTotp: fromPromise<TokenPair, { code: string }>(() => {
      throw new Error('verifyTotp is provided by the session');
    }),
    verifyEmailCode: fromPromise<TokenPair, { code: string }>(() => {
      throw new Error('verifyEmailCode is provided by the session');
    }),
    tokenRefresh: tokenRefreshMachine,
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
    storeLogin: assign({
      token: (_, output: TokenPair & { username: string }) => output,
      error: null,
    }),
    /** Spec section 7: after token/verify/ (and setup confirmation) the username is the token's. */
    storeVerified: assign({
      token: ({ context }, output: TokenPair) => ({ username: readClaims(output.access)?.username ?? context.token?.username ?? '', ...output }),
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
        assertEvent(event, 'STORAGE.CHANGED');
        return event.token;
      },
      // The old screen's message does not belong to the one another tab leads to.
      error: null,
    }),
    clearSession: assign({ token: null, error: null, deviceId: null, qrUrl: null, setupEmail: null }),
    setError: assign({ error: (_, text: string | null) => text }),
    clearError: assign({ error: null }),
    storeTotpSetup: assign({
      deviceId: (_, output: TotpSetup) => output.device_id,
      qrUrl: (_, output: TotpSetup) => output.qr_url,
      error: null,
    }),
    storeEmailSetup: assign({
      deviceId: (_, output: EmailSetup) => output.device_id,
      setupEmail: (_, output: EmailSetup) => output.email,
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
      actions: ['clearSession', 'persistToken', { type: 'track', params: { event: 'logout' } }, { type: 'track', params: { user_id: null } }],
    },
    'STORAGE.CHANGED': [
      {
        guard: and(['isStorageCleared', 'needsEmailCode']),
        target: '.signedOut',
        actions: ['clearSession', { type: 'setError', params: authMessages.sessionExpired }],
      },
      { target: '.routing', actions: 'storeFromStorage' },
    ],
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
      entry: assign({ token: null, deviceId: null, qrUrl: null, setupEmail: null }),
      states: {
        idle: {
          on: { 'LOGIN.SUBMIT': { target: 'signingIn', actions: 'clearError' } },
        },
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
                { type: 'storeLogin', params: ({ event }) => event.output },
                'persistToken',
                { type: 'track', params: { event: 'login_success', method: 'password' } },
              ],
            },
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
        settingUp: {
          tags: ['pending'],
          invoke: {
            id: 'setupTotp',
            src: 'setupTotp',
            onDone: { target: 'ready', actions: { type: 'storeTotpSetup', params: ({ event }) => event.output } },
            onError: failTo('setupError'),
          },
        },
        setupError: {
          on: { 'SETUP.RETRY': 'retrying' },
        },
        retrying: {
          tags: ['pending'],
          invoke: {
            id: 'retrySetupTotp',
            src: 'setupTotp',
            onDone: { target: 'ready', actions: { type: 'storeTotpSetup', params: ({ event }) => event.output } },
            onError: failTo('setupError'),
          },
        },
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
              states: {
                idle: {
                  on: {
                    'CODE.CONFIRM': [
                      { guard: 'isCodeBlank', actions: { type: 'setError', params: authMessages.codeMissing } },
                      { guard: not('hasDeviceId'), actions: { type: 'setError', params: authMessages.deviceMissing } },
                      { target: 'confirming', actions: 'clearError' },
                    ],
                  },
                },
                confirming: {
                  tags: ['pending'],
                  invoke: {
                    id: 'confirmTotp',
                    src: 'confirmTotp',
                    input: ({ context, event }) => ({ code: codeOf(event), deviceId: context.deviceId ?? '' }),
                    onDone: {
                      target: '#auth.authenticated',
                      actions: [{ type: 'storeVerified', params: ({ event }) => event.output }, 'persistToken'],
                    },
                    onError: failTo('idle'),
                  },
                },
              },
            },
          },
        },
      },
    },

    emailSetup: {
      initial: 'sending',
      states: {
        sending: {
          tags: ['pending'],
          invoke: {
            id: 'setupEmail',
            src: 'setupEmail',
            onDone: { target: 'ready', actions: { type: 'storeEmailSetup', params: ({ event }) => event.output } },
            onError: failTo('setupError'),
          },
        },
        setupError: {
          on: { 'SETUP.RETRY': 'retrying' },
        },
        retrying: {
          tags: ['pending'],
          invoke: {
            id: 'retrySetupEmail',
            src: 'setupEmail',
            onDone: { target: 'ready', actions: { type: 'storeEmailSetup', params: ({ event }) => event.output } },
            onError: failTo('setupError'),
          },
        },
        ready: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'EMAIL.RESEND': { target: 'resending', actions: 'clearError' },
                'CODE.CONFIRM': [
                  { guard: 'isCodeBlank', actions: { type: 'setError', params: authMessages.codeMissing } },
                  { guard: not('hasDeviceId'), actions: { type: 'setError', params: authMessages.deviceMissing } },
                  { target: 'confirming', actions: 'clearError' },
                ],
              },
            },
            resending: {
              tags: ['pending'],
              invoke: {
                // token/send-email/ sends a new code for the device being set up: it stays the same.
                id: 'resendSetupEmail',
                src: 'sendLoginEmail',
                onDone: 'idle',
                onError: failTo('idle'),
              },
            },
            confirming: {
              tags: ['pending'],
              invoke: {
                id: 'confirmEmailSetup',
                src: 'confirmEmailSetup',
                input: ({ context, event }) => ({ code: codeOf(event), deviceId: context.deviceId ?? '' }),
                onDone: {
                  target: '#auth.authenticated',
                  actions: [{ type: 'storeVerified', params: ({ event }) => event.output }, 'persistToken'],
                },
                onError: failTo('idle'),
              },
            },
          },
        },
      },
    },

    totpVerification: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'CODE.VERIFY': { guard: not('isCodeBlank'), target: 'verifying', actions: 'clearError' } },
        },
        verifying: {
          tags: ['pending'],
          invoke: {
            id: 'verifyTotp',
            src: 'verifyTotp',
            input: ({ event }) => ({ code: codeOf(event) }),
            onDone: {
              target: '#auth.authenticated',
              actions: [
                { type: 'storeVerified', params: ({ event }) => event.output },
                'persistToken',
                { type: 'track', params: { event: 'login_2fa_success', method: 'totp' } },
              ],
            },
            onError: failTo('idle'),
          },
        },
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
            onDone: 'ready',
            onError: failTo('sendError'),
          },
        },
        sendError: {
          on: { 'EMAIL.RETRY': 'retrying' },
        },
        retrying: {
          tags: ['pending'],
          invoke: {
            id: 'retrySendLoginEmail',
            src: 'sendLoginEmail',
            onDone: { target: 'ready', actions: 'clearError' },
            onError: failTo('sendError'),
          },
        },
        ready: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'EMAIL.RESEND': { target: 'resending', actions: 'clearError' },
                'CODE.VERIFY': { guard: 'isFullCode', target: 'verifying', actions: 'clearError' },
              },
            },
            resending: {
              tags: ['pending'],
              invoke: {
                id: 'resendLoginEmail',
                src: 'sendLoginEmail',
                onDone: 'idle',
                onError: failTo('idle'),
              },
            },
            verifying: {
              tags: ['pending'],
              invoke: {
                id: 'verifyEmailCode',
                src: 'verifyEmailCode',
                input: ({ event }) => ({ code: codeOf(event) }),
                onDone: {
                  target: '#auth.authenticated',
                  actions: [
                    { type: 'storeVerified', params: ({ event }) => event.output },
                    'persistToken',
                    { type: 'track', params: { event: 'login_2fa_success', method: 'email' } },
                  ],
                },
                onError: failTo('idle'),
              },
            },
          },
        },
      },
    },

    authenticated: {
      entry: { type: 'track', params: ({ context }) => ({ user_id: userIdOf(context.token) }) },
      invoke: {
        id: 'tokenRefresh',
        src: 'tokenRefresh',
        input: ({ context }) => ({ tokens: { access: context.token?.access ?? '', refresh: context.token?.refresh ?? '' } }),
      },
      initial: 'checking',
      on: {
        'REFRESH.REQUEST': { actions: 'requestRefresh' },
        'TOKEN.REFRESHED': { target: '.active', actions: ['storeRefreshed', 'persistToken'] },
        'SESSION.EXPIRED': {
          target: 'signedOut',
          actions: [
            'clearSession',
            'persistToken',
            { type: 'setError', params: ({ event }) => event.message },
            { type: 'track', params: { user_id: null } },
          ],
        },
        'STORAGE.CHANGED': [
          {
            guard: 'isVerifiedTokenStored',
            target: '.checking',
            actions: ['storeFromStorage', 'forwardToken'],
          },
          { target: 'routing', actions: ['storeFromStorage', { type: 'track', params: { user_id: null } }] },
        ],
      },
      states: {
        checking: {
          always: [{ guard: 'isAccessExpired', target: 'restoring' }, { target: 'active' }],
        },
        restoring: { tags: ['pending'] },
        active: {},
      },
    },
  },
});

function userIdOf(token: StoredToken | null): string | null {
  const claims = token ? readClaims(token.access) : null;
  return claims ? claims.user_id : null;
}
