// Access tokens for tests: unsigned JWTs (header.payload.signature, base64url) with the claims the
// portal reads (docs/product-rules.md, Tokens and sessions). The client never checks signatures, so
// these route the login gate and schedule refreshes exactly as the server's signed tokens do.
import type { TokenPair } from '../../src/api/schemas.ts';
import type { StoredToken } from '../../src/domain/auth-token.ts';

export interface TestClaims {
  /** Expiry in seconds since the epoch; 10 minutes from now (Date.now(), fake or real) by default. */
  exp: number;
  /** When the server issued the token, in seconds since the epoch; none by default (the device clock is then the server's). */
  iat?: number;
  user_id: number | string;
  username: string;
  is_2fa_verified?: boolean;
  '2fa_method'?: 'totp' | 'email' | null;
  affiliate_id?: string | null;
  is_superuser?: boolean;
}

export const TEST_USERNAME = 'parent';

/** The `exp` claim of a token that expires `seconds` after `now` (milliseconds). */
export function expiresIn(seconds: number, now: number = Date.now()): number {
  return Math.floor(now / 1000) + seconds;
}

function base64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned access token with the given claims (and defaults for the required ones). */
export function makeAccessToken(claims: Partial<TestClaims> = {}): string {
  const payload: TestClaims = { exp: expiresIn(600), user_id: 7, username: TEST_USERNAME, ...claims };
  return `${base64Url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64Url(JSON.stringify(payload))}.unsigned`;
}

let refreshCounter = 0;

/** An access token with these claims and an opaque refresh token (unique unless given). */
export function makeTokenPair(claims: Partial<TestClaims> = {}, refresh?: string): TokenPair {
  refreshCounter += 1;
  return { access: makeAccessToken(claims), refresh: refresh ?? `refresh-${refreshCounter}` };
}

/** The record the portal stores under auth_token. */
export function makeStoredToken(claims: Partial<TestClaims> = {}, refresh?: string): StoredToken {
  return { username: claims.username ?? TEST_USERNAME, ...makeTokenPair(claims, refresh) };
}

/** The partial token password login answers: 2FA not yet verified, with the user's method if any. */
export const partialClaims = (method: 'totp' | 'email' | null): Partial<TestClaims> =>
  method === null ? { is_2fa_verified: false } : { is_2fa_verified: false, '2fa_method': method };

/** The full token of a verified session. */
export const verifiedClaims = (method: 'totp' | 'email' = 'totp'): Partial<TestClaims> => ({
  is_2fa_verified: true,
  '2fa_method': method,
});
