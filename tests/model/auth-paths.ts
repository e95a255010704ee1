// The auth machine's model: every event it can meet, with realistic samples, and the paths
// generated from the real machine (machines/auth.ts). `npm run paths` prints them; the
// model-based suite turns each into a test, so both use exactly these.
//   User events        what the screens send (typed codes, choices, Back, Logout)
//   Actor outcomes     xstate.done.actor.<id> / xstate.error.actor.<id> for every invoke id,
//                      with answers shaped as the reference server gives them
//   Session events     another tab's storage change, and what the token refresh child says
import type { EventObject } from 'xstate';
import { authMachine, type AuthEvent } from '../../machines/auth.ts';
import { ApiError, messages } from '../../src/api/client.ts';
import type { EmailSetup, TokenPair, TotpSetup } from '../../src/api/schemas.ts';
import type { StoredToken } from '../../src/domain/auth-token.ts';
import { expiresIn, makeTokenPair, partialClaims, verifiedClaims } from '../utils/tokens.ts';
import { generatePaths, noted, type MachineModel, type ModelPaths } from './paths.ts';

/** The invoke ids of the auth machine, each with an outcome event pair below. */
export const authInvokeIds = [
  'login',
  'setupTotp',
  'generateQrCode',
  'confirmTotp',
  'setupEmail',
  'resendEmail',
  'confirmEmailSetup',
  'sendLoginEmail',
  'verifyTotp',
  'verifyEmailCode',
] as const;
export type AuthInvokeId = (typeof authInvokeIds)[number];

/** An invoked actor's answer, as the machine receives it. */
export interface ActorDoneEvent<TOutput = unknown> extends EventObject {
  type: `xstate.done.actor.${AuthInvokeId}`;
  output: TOutput;
}
/** An invoked actor's failure, as the machine receives it. */
export interface ActorErrorEvent extends EventObject {
  type: `xstate.error.actor.${AuthInvokeId}`;
  error: unknown;
}
export type AuthModelEvent = AuthEvent | ActorDoneEvent | ActorErrorEvent;

/** The fixture users of tests/utils/api-server.ts whose sign-in the samples follow. */
const users = {
  /** parent: TOTP configured. */
  totp: { user_id: 1, username: 'parent' },
  /** child: e-mail codes configured. */
  email: { user_id: 2, username: 'child' },
  /** fresh: no second factor yet. */
  none: { user_id: 3, username: 'fresh' },
};

/** Sample tokens, expiring relative to `now` as the reference server's 5-minute tokens do. */
export function authSampleTokens(now: number = Date.now()) {
  const fresh = expiresIn(300, now);
  const stored = (user: { username: string }, pair: TokenPair): StoredToken => ({ username: user.username, ...pair });
  return {
    partialTotp: stored(users.totp, makeTokenPair({ ...users.totp, ...partialClaims('totp'), exp: fresh }, 'refresh-partial-totp')),
    partialEmail: stored(users.email, makeTokenPair({ ...users.email, ...partialClaims('email'), exp: fresh }, 'refresh-partial-email')),
    partialNone: stored(users.none, makeTokenPair({ ...users.none, ...partialClaims(null), exp: fresh }, 'refresh-partial-none')),
    verifiedTotp: makeTokenPair({ ...users.totp, ...verifiedClaims('totp'), exp: fresh }, 'refresh-verified-totp'),
    verifiedEmail: makeTokenPair({ ...users.email, ...verifiedClaims('email'), exp: fresh }, 'refresh-verified-email'),
    setUpTotp: makeTokenPair({ ...users.none, ...verifiedClaims('totp'), exp: fresh }, 'refresh-set-up-totp'),
    setUpEmail: makeTokenPair({ ...users.none, ...verifiedClaims('email'), exp: fresh }, 'refresh-set-up-email'),
    /** What another tab stores after its own sign-in or refresh. */
    otherTab: stored(users.totp, makeTokenPair({ ...users.totp, ...verifiedClaims('totp'), exp: fresh }, 'refresh-other-tab')),
    /** A verified token whose access part has expired (the laptop slept): restored by a refresh. */
    expired: stored(users.totp, makeTokenPair({ ...users.totp, ...verifiedClaims('totp'), exp: expiresIn(-60, now) }, 'refresh-expired')),
    /** What token/refresh/ answers. */
    refreshed: makeTokenPair({ ...users.totp, ...verifiedClaims('totp'), exp: expiresIn(600, now) }, 'refresh-rotated'),
  };
}

const httpError = (text: string, status: number) => new ApiError(text, 'http', status);

const done = <TOutput>(id: AuthInvokeId, output: TOutput, note: string): ActorDoneEvent<TOutput> =>
  noted({ type: `xstate.done.actor.${id}`, output }, `output: ${note}`);
const failed = (id: AuthInvokeId, error: Error): ActorErrorEvent =>
  noted(
    { type: `xstate.error.actor.${id}`, error },
    `error: ${error instanceof ApiError && error.status !== null ? `${error.status} ` : ''}'${error.message}'`,
  );

/** Every event of the model, `now` deciding which sample tokens are expired. */
export function authEvents(now: number = Date.now()): AuthModelEvent[] {
  const tokens = authSampleTokens(now);
  const totpSetup: TotpSetup = {
    device_id: 'c0ffee00-0000-4000-8000-000000000001',
    qr_url: 'otpauth://totp/Affiliate%20Portal:fresh?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Affiliate%20Portal',
  };
  const emailSetup: EmailSetup = { device_id: 'c0ffee00-0000-4000-8000-000000000002', email: 'fresh@fixtures.example' };
  /** A 2FA step's 401: the partial token expired or was revoked. */
  const unauthorized = (text: string) => httpError(text, 401);
  const storage = (token: StoredToken | null, note: string): AuthEvent => noted({ type: 'STORAGE.CHANGED', token }, note);

  return [
    // The credentials form.
    noted({ type: 'LOGIN.SUBMIT', username: 'parent', password: 'parent-password-1' }, 'credentials typed'),
    done('login', tokens.partialTotp, 'partial token, 2fa_method totp'),
    done('login', tokens.partialEmail, 'partial token, 2fa_method email'),
    done('login', tokens.partialNone, 'partial token, no 2fa_method'),
    // token/ is called without a token: its 401 means rejected credentials, not an expired session.
    failed('login', httpError(messages.login.rejected, 401)),
    failed('login', new ApiError(messages.login.failed, 'network')),

    // 2FA setup required, then the authenticator app.
    { type: 'SETUP.CHOOSE_APP' },
    { type: 'SETUP.CHOOSE_EMAIL' },
    { type: 'SETUP.RETRY' },
    done('setupTotp', totpSetup, 'device_id and qr_url'),
    failed('setupTotp', httpError(messages.httpStatus(500), 500)),
    failed('setupTotp', unauthorized(messages.httpStatus(401))),
    done('generateQrCode', undefined, 'QR code drawn'),
    failed('generateQrCode', new Error('Failed to generate QR code')),
    { type: 'CODE.CONFIRM', code: '123456' },
    { type: 'CODE.CONFIRM', code: '' },
    done('confirmTotp', tokens.setUpTotp, 'verified token, 2fa_method totp'),
    failed('confirmTotp', httpError(messages.httpStatus(400), 400)),
    failed('confirmTotp', unauthorized(messages.httpStatus(401))),

    // E-mail codes set-up.
    { type: 'EMAIL.RESEND' },
    done('setupEmail', emailSetup, 'device_id and email'),
    failed('setupEmail', httpError(messages.httpStatus(500), 500)),
    failed('setupEmail', unauthorized(messages.httpStatus(401))),
    // Resend, during set-up or at login, is token/send-email/ (during set-up, a new code for the same device).
    done('resendEmail', undefined, 'code sent'),
    failed('resendEmail', httpError(messages.sendEmail.status(500), 500)),
    failed('resendEmail', unauthorized(messages.sendEmail.status(401))),
    done('confirmEmailSetup', tokens.setUpEmail, 'verified token, 2fa_method email'),
    failed('confirmEmailSetup', httpError(messages.httpStatus(400), 400)),
    failed('confirmEmailSetup', unauthorized(messages.httpStatus(401))),

    // The code screens of a configured second factor.
    { type: 'CODE.VERIFY', code: '123456' },
    { type: 'CODE.VERIFY', code: '' },
    { type: 'EMAIL.RETRY' },
    done('sendLoginEmail', undefined, 'code sent'),
    failed('sendLoginEmail', httpError(messages.sendEmail.status(500), 500)),
    failed('sendLoginEmail', unauthorized(messages.sendEmail.status(401))),
    done('verifyTotp', tokens.verifiedTotp, 'verified token, 2fa_method totp'),
    failed('verifyTotp', httpError(messages.totpCode.rejected, 400)),
    failed('verifyTotp', unauthorized(messages.totpCode.rejected)),
    done('verifyEmailCode', tokens.verifiedEmail, 'verified token, 2fa_method email'),
    failed('verifyEmailCode', httpError(messages.emailCode.rejected, 400)),
    failed('verifyEmailCode', unauthorized(messages.emailCode.rejected)),

    // Anywhere.
    { type: 'BACK' },
    { type: 'LOGOUT' },
    storage(null, 'another tab cleared the token'),

    // A verified session: what the token refresh child and the API client say.
    { type: 'REFRESH.REQUEST' },
    noted({ type: 'TOKEN.REFRESHED', tokens: tokens.refreshed }, 'new access token'),
    { type: 'SESSION.EXPIRED', message: null },
    { type: 'SESSION.EXPIRED', message: messages.refresh(500) },
  ];
}

/**
 * Another tab storing a token: each of these jumps straight to a screen the events above reach
 * by signing in, so paths take them only where nothing else gets (a session restored from an
 * expired token, a replaced verified token).
 */
export function authStorageEvents(now: number = Date.now()): AuthModelEvent[] {
  const tokens = authSampleTokens(now);
  const storage = (token: StoredToken, note: string): AuthEvent => noted({ type: 'STORAGE.CHANGED', token }, note);
  return [
    storage(tokens.partialTotp, 'another tab stored a partial token, totp'),
    storage(tokens.partialEmail, 'another tab stored a partial token, email'),
    storage(tokens.partialNone, 'another tab stored a partial token, no 2fa_method'),
    storage(tokens.otherTab, 'another tab stored a verified token'),
    storage(tokens.expired, 'another tab stored a verified token, expired'),
  ];
}

/** Transitions of machines/auth.ts that no sequence of events takes: none. */
export const authUnreachableTransitions: Record<string, string> = {};

/** The model: the real auth machine, signed out (nothing stored), and the events above. */
export function authModel(now: number = Date.now()): MachineModel {
  return {
    id: authMachine.id,
    machine: authMachine,
    input: { token: null },
    events: authEvents(now),
    shortcutEvents: authStorageEvents(now),
    unreachableTransitions: authUnreachableTransitions,
  };
}

/** The auth machine's paths, generated from the machine at `now`. */
export function authPaths(now: number = Date.now()): ModelPaths {
  return generatePaths(authModel(now));
}
