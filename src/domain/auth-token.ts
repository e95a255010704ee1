// The stored auth token record (localStorage "auth_token": username, access, refresh) and what
// its access token's claims decide: which screen of the login gate shows, and whether the app
// content may show. Pure functions: garbage in means signed out, never a throw.
import { jwtDecode } from 'jwt-decode';
import * as z from 'zod/mini';
import { accessClaimsSchema, type AccessClaims } from './access-claims.ts';

export const TOKEN_STORAGE_KEY = 'auth_token';
/** After a refresh, the next one waits at least this long, even for a very short-lived token. */
export const MIN_REFRESH_INTERVAL_MS = 5_000;
/** A token is refreshed 60 seconds before it expires. */
const REFRESH_LEAD_MS = 60_000;

export const storedTokenSchema = z.object({ username: z.string(), access: z.string(), refresh: z.string() });
export type StoredToken = z.infer<typeof storedTokenSchema>;

/** The token record in storage, or null when it is missing or not a record of the right shape. */
export function parseStoredToken(raw: string | null): StoredToken | null {
  if (raw === null) return null;
  try {
    const parsed = storedTokenSchema.safeParse(JSON.parse(raw));
    return parsed.success && readClaims(parsed.data.access) ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The access token's claims, or null when it is not a JWT with the claims the portal reads. */
export function readClaims(access: string): AccessClaims | null {
  try {
    const parsed = accessClaimsSchema.safeParse(jwtDecode(access));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The screens of the login gate: no valid claims, sign in; no 2FA method, set one up; a method
 * but not verified, its code; verified, the app.
 */
export type Gate = 'credentials' | 'setupRequired' | 'totpCode' | 'emailCode' | 'app';

export function gateFor(token: StoredToken | null): Gate {
  const claims = token ? readClaims(token.access) : null;
  if (!claims) return 'credentials';
  // A method comes first: a token without one needs 2FA set up, whatever else it claims.
  const method = claims['2fa_method'];
  if (!method) return 'setupRequired';
  if (claims.is_2fa_verified === true) return 'app';
  return method === 'totp' ? 'totpCode' : 'emailCode';
}

export function expiresAt(access: string): number {
  const claims = readClaims(access);
  return claims ? claims.exp * 1000 : 0;
}

// `now` below is the server's clock as the portal knows it (server-clock.ts), never the device's alone.
export function isExpired(access: string, now: number): boolean {
  return expiresAt(access) <= now;
}

/** Milliseconds until the token should be refreshed: 60 s before expiry; 0 or less means now. */
export function msUntilRefresh(access: string, now: number): number {
  return expiresAt(access) - REFRESH_LEAD_MS - now;
}
