// Signed JWTs (HS256, jose) with the claims the portal reads (see docs/product-rules.md, Tokens
// and sessions). Password login gives a partial pair (is_2fa_verified false); confirming a 2FA
// setup or verifying a code gives a full one. Refresh tokens rotate: each works once, and the new
// pair keeps the old one's verification; a token used twice (stolen, one of the two users is not
// its owner) revokes its whole chain. A chain ends 30 days after its sign-in however often it
// rotates: a stolen refresh token its owner never comes back to race lasts no longer. A chain
// keeps one stored token, its latest: each refresh token names its chain, so that an earlier one,
// no longer stored, still revokes the chain when it comes back, and rotating a chain without end
// does not grow the database.
import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Db } from './db.ts';
import { detail, messages } from './http.ts';
import type { UserRow } from './users.ts';

export interface AccessTokenClaims {
  token_type: 'access';
  exp: number;
  iat: number;
  jti: string;
  user_id: number;
  username: string;
  sub: string;
  '2fa_method'?: 'totp' | 'email';
  is_2fa_verified: boolean;
  affiliate_id: string | null;
  is_superuser: boolean;
}

interface RefreshTokenClaims {
  token_type: 'refresh';
  exp: number;
  iat: number;
  /** When the chain's sign-in was, in seconds since the epoch (OpenID Connect's name). */
  auth_time?: number;
  /** The chain's name (tokens signed before chains were named have none). */
  family?: string;
  jti: string;
  user_id: number;
  is_2fa_verified: boolean;
}

export interface TokenPair {
  access: string;
  refresh: string;
}

/** A refresh chain: the name of its tokens' family, and when its sign-in was (seconds). */
export interface RefreshChain {
  family: string;
  signedInAt: number;
}

/** The shortest signing key taken: HS256's hash is 32 bytes, and a shorter key is easier to guess than to forge. */
export const MIN_SECRET_BYTES = 32;

/** How long a chain lasts from its sign-in, however often it rotates. */
export const SESSION_MAX_SECONDS = 30 * 24 * 60 * 60;

export interface TokenService {
  /** A new pair; its refresh token continues `chain` (a rotation) or starts one (a sign-in). */
  issue(user: UserRow, verified: boolean, chain?: RefreshChain): Promise<TokenPair>;
  verifyAccess(token: string): Promise<AccessTokenClaims>;
  /**
   * Checks and revokes a refresh token; answers its user id, verification and chain. `admit` is
   * told of the chain of a genuine token before it is redeemed (or its reuse noticed), and may
   * refuse by throwing.
   */
  redeemRefresh(token: string, admit?: (family: string) => void): Promise<{ userId: number; verified: boolean; chain: RefreshChain }>;
}

export interface TokenOptions {
  secret: Uint8Array;
  now: () => number;
  accessLifetimeSeconds: number;
  refreshLifetimeSeconds: number;
}

export function createTokenService(db: Db, options: TokenOptions): TokenService {
  const { secret, now, accessLifetimeSeconds, refreshLifetimeSeconds } = options;
  const nowSeconds = () => Math.floor(now() / 1000);
  const storeRefresh = db.prepare('INSERT INTO refresh_tokens (jti, user_id, expires_at, family) VALUES (?, ?, ?, ?)');
  const findRefresh = db.prepare<[string], { family: string | null }>('SELECT family FROM refresh_tokens WHERE jti = ?');
  const revokeRefresh = db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE jti = ? AND revoked_at IS NULL');
  // A token stored before chains were kept (family NULL) heads a chain named by its jti.
  const revokeFamily = db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE (family = ? OR jti = ?) AND revoked_at IS NULL');
  // Once its successor is stored, a redeemed token's row is not needed: the token names its chain.
  // Rows stored without a chain name stay until they expire, as their tokens name none.
  const dropRedeemed = db.prepare('DELETE FROM refresh_tokens WHERE family = ? AND revoked_at IS NOT NULL AND jti <> ?');

  const sign = (claims: Record<string, unknown>, lifetime: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(nowSeconds())
      .setExpirationTime(nowSeconds() + lifetime)
      .sign(secret);

  async function verify(token: string, invalid: string): Promise<Record<string, unknown>> {
    try {
      // A token without exp would never expire: refused, as every token this server signs has one.
      const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], currentDate: new Date(now()), requiredClaims: ['exp'] });
      return payload;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) throw tokenNotValid(invalid);
      throw error;
    }
  }

  return {
    async issue(user, verified, chain) {
      const refreshJti = randomUUID();
      const signedInAt = chain?.signedInAt ?? nowSeconds();
      // Never past the chain's end: its last token expires with it.
      const refreshLifetime = Math.min(refreshLifetimeSeconds, signedInAt + SESSION_MAX_SECONDS - nowSeconds());
      const access = await sign(
        {
          token_type: 'access',
          jti: randomUUID(),
          user_id: user.id,
          username: user.username,
          sub: String(user.id),
          ...(user.twofa_method ? { '2fa_method': user.twofa_method } : {}),
          is_2fa_verified: verified,
          affiliate_id: user.affiliate_id,
          is_superuser: user.is_superuser === 1,
        },
        accessLifetimeSeconds,
      );
      const family = chain?.family ?? refreshJti;
      const refresh = await sign(
        { token_type: 'refresh', jti: refreshJti, user_id: user.id, is_2fa_verified: verified, auth_time: signedInAt, family },
        refreshLifetime,
      );
      db.transaction(() => {
        storeRefresh.run(refreshJti, user.id, (nowSeconds() + refreshLifetime) * 1000, family);
        if (chain) dropRedeemed.run(family, refreshJti);
      })();
      return { access, refresh };
    },

    async verifyAccess(token) {
      const payload = await verify(token, messages.tokenNotValid);
      if (payload.token_type !== 'access' || typeof payload.user_id !== 'number') throw tokenNotValid(messages.tokenNotValid);
      return payload as unknown as AccessTokenClaims;
    },

    async redeemRefresh(token, admit) {
      const payload = await verify(token, 'Token is invalid or expired');
      const claims = payload as unknown as RefreshTokenClaims;
      if (claims.token_type !== 'refresh' || typeof claims.jti !== 'string') throw tokenNotValid('Token is invalid or expired');
      const stored = findRefresh.get(claims.jti);
      const named = typeof claims.family === 'string' ? claims.family : undefined;
      if (!stored && named === undefined) throw tokenNotValid('Token is blacklisted');
      const family = stored?.family ?? named ?? claims.jti;
      admit?.(family);
      // Revoking and checking in one statement: a refresh token is redeemed at most once. A second
      // use means two holders, one of them not the owner: the chain is revoked, successors too.
      // A genuine token of the chain that is no longer stored was redeemed before: the same.
      if (!stored || revokeRefresh.run(now(), claims.jti).changes !== 1) {
        revokeFamily.run(now(), family, family);
        throw tokenNotValid('Token is blacklisted');
      }
      // A token signed before chains kept their sign-in time counts from its own issue.
      const signedInAt = typeof claims.auth_time === 'number' ? claims.auth_time : claims.iat;
      return { userId: claims.user_id, verified: claims.is_2fa_verified === true, chain: { family, signedInAt } };
    },
  };
}

function tokenNotValid(text: string) {
  const error = detail(401, text);
  error.body.code = 'token_not_valid';
  return error;
}
