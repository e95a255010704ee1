import { describe, expect, it } from 'vitest';
import { makeAccessToken, makeStoredToken, verifiedClaims } from '../../tests/utils/tokens.ts';
import { gateFor, parseStoredToken, readClaims } from './auth-token.ts';

describe('readClaims', () => {
  it('reads the claims of an access token', () => {
    const access = makeAccessToken({ user_id: 42, username: 'berlin', affiliate_id: 'AFF-100', ...verifiedClaims('email') });
    expect(readClaims(access)).toMatchObject({
      user_id: '42',
      username: 'berlin',
      affiliate_id: 'AFF-100',
      is_2fa_verified: true,
      '2fa_method': 'email',
    });
  });

  it('reads UTF-8 text and the base64url alphabet, padding left off', () => {
    // 'Zoë ~~~?' encodes to base64 with '+', '/' and padding: base64url has '-', '_' and none.
    const access = makeAccessToken({ username: 'Zoë ~~~?' });
    expect(access.split('.')[1]).toMatch(/[-_]/);
    expect(readClaims(access)?.username).toBe('Zoë ~~~?');
  });

  it('answers null, never throws, for what is not a JWT with the claims the portal reads', () => {
    for (const access of ['', 'not a token', 'a.b.c', 'a.!!!.c', `x.${btoa('[1,2]')}.y`, `x.${btoa('{"exp":1}')}.y`]) {
      expect(readClaims(access), access).toBeNull();
    }
  });
});

describe('the stored token record', () => {
  it('routes the login gate by its claims', () => {
    expect(gateFor(parseStoredToken(JSON.stringify(makeStoredToken(verifiedClaims()))))).toBe('app');
    expect(gateFor(parseStoredToken(JSON.stringify(makeStoredToken({ is_2fa_verified: false, '2fa_method': 'totp' }))))).toBe('totpCode');
    expect(parseStoredToken(JSON.stringify({ username: 'x', access: 'garbage', refresh: 'r' }))).toBeNull();
    expect(parseStoredToken('not json')).toBeNull();
  });
});
