// @vitest-environment node
// The tokens' clock, for tests of clients whose clock differs from the server's: with
// tokenClockOffsetSeconds the server issues and checks its tokens (iat, exp, a chain's times) as if
// its clock were that far ahead or behind, while TOTP codes, throttles and everything else keep the
// real clock. Every access token carries iat, which clients read the server's clock from.
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { refreshResponseSchema, tokenPairSchema } from '../src/api/schemas.ts';
import { useContractApi } from '../tests/utils/api-contract.ts';

const api = useContractApi();
const seconds = () => Math.floor(api.server.clock.now() / 1000);

describe.each([600, -600, 0])('tokens on a clock %i s off', (offset) => {
  it('are issued with iat and exp on that clock, and work on the server that issued them', async () => {
    api.restart({ tokenClockOffsetSeconds: offset });
    // The TOTP code is computed at the real time: the codes keep the real clock.
    const pair = await api.verifiedPair('parent');
    for (const token of [pair.access, pair.refresh]) expect(decodeJwt(token).iat).toBe(seconds() + offset);
    expect(decodeJwt(pair.access).exp).toBe(seconds() + offset + 5 * 60);
    expect((await api.get('affiliates/', pair.access)).status).toBe(200);
    const refreshed = await api.post('token/refresh/', { refresh: pair.refresh });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshResponseSchema.parse(refreshed.body).access).iat).toBe(seconds() + offset);
  });

  it('expire when their lifetime has passed, counted on that clock', async () => {
    api.restart({ tokenClockOffsetSeconds: offset });
    const pair = await api.verifiedPair('parent');
    api.server.clock.advance(5 * 60_000 - 1_000);
    expect((await api.get('affiliates/', pair.access)).status).toBe(200);
    api.server.clock.advance(2_000);
    expect((await api.get('affiliates/', pair.access)).status).toBe(401);
  });
});

describe('a server whose token clock is 600 s ahead', () => {
  it('refuses the tokens of a server on the real clock once they look expired to it', async () => {
    const pair = await api.verifiedPair('parent');
    // A server with the same key and accounts, its token clock 10 minutes ahead: the token's 5
    // minutes are over there.
    api.restart({ tokenClockOffsetSeconds: 600 });
    expect((await api.get('affiliates/', pair.access)).status).toBe(401);
  });
});

describe('every access token', () => {
  it('carries iat: password sign-in, code, 2FA setup, refresh and registration', async () => {
    const iat = (access: string) => decodeJwt(access).iat;
    const now = seconds();
    expect(iat((await api.passwordPair('parent')).access)).toBe(now);
    const verified = await api.verifiedPair('parent');
    expect(iat(verified.access)).toBe(now);
    // fresh sets up TOTP on the way: the pair of 2fa/totp/confirm/.
    expect(iat((await api.verifiedPair('fresh')).access)).toBe(now);
    const refreshed = await api.post('token/refresh/', { refresh: verified.refresh });
    expect(iat(refreshResponseSchema.parse(refreshed.body).access)).toBe(now);
    const registered = await api.post('affiliates/invites/register/', {
      email: 'new.member@example.com',
      password: 'a-long-new-passphrase',
      invite_id: api.fx.invites.valid,
    });
    expect(registered.status).toBe(201);
    const { tokens } = registered.body as { tokens: unknown };
    expect(iat(tokenPairSchema.parse(tokens).access)).toBe(now);
  });
});
