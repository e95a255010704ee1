// What the sign-in chart (auth.ts) holds and hears: its context, its events, its input, and the
// texts it puts on the error line itself (every other text is a failed call's, from errorText).
import type { TokenPair } from '../src/api/schemas.ts';
import type { StoredToken } from '../src/domain/auth-token.ts';

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
  /** Seconds until 'Resend Email' may send another code; 0 when it may. */
  resendWait: number;
  /** Seconds until a code may be sent again after too many attempts (while the form is throttled). */
  codeWait: number;
}

export type AuthEvent =
  | { type: 'LOGIN.SUBMIT'; username: string; password: string }
  /** 'Back', and 'Back to Login' on the setup-required and e-mailed code screens: clears the token and any message. */
  | { type: 'BACK' }
  /** 'Logout', and 'Back to Login' on the authenticator code screen: clears the token and any message, and records a logout. */
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
