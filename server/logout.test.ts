// @vitest-environment node
// POST token/blacklist/ (SimpleJWT's logout endpoint, no Authorization header): the refresh
// token's whole chain ends, so neither it nor any token rotated from the same sign-in refreshes
// again, and the chain's access tokens are refused at once. Answers as SimpleJWT does: 200 {},
// 401 token_not_valid for a token that is not a genuine, live refresh token, 400 without one.
import { describe, expect, it } from 'vitest';
import { refreshResponseSchema, type TokenPair } from '../src/api/schemas.ts';
import { expectFieldErrors, REQUIRED, useContractApi } from '../tests/utils/api-contract.ts';

const api = useContractApi();

const blacklist = (refresh: unknown) => api.post('token/blacklist/', { refresh });
const refresh = (token: string) => api.post('token/refresh/', { refresh: token });
const INVALID = { detail: 'Token is invalid or expired', code: 'token_not_valid' };

async function rotated(pair: TokenPair): Promise<TokenPair> {
  const answer = await refresh(pair.refresh);
  expect(answer.status).toBe(200);
  const { access, refresh: next } = refreshResponseSchema.parse(answer.body);
  return { access, refresh: next ?? '' };
}

describe('POST token/blacklist/', () => {
  it('answers 200 {} and ends the chain: the token, and the access tokens of its chain, are refused from then on', async () => {
    const pair = await api.verifiedPair('parent');
    const answer = await blacklist(pair.refresh);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({});
    expect((await refresh(pair.refresh)).status).toBe(401);
    expect((await api.get('affiliates/', pair.access)).status).toBe(401);
  });

  it('ends the whole chain given any of its tokens: a tab that never refreshed logs out the tab that did', async () => {
    const first = await api.verifiedPair('parent');
    const second = await rotated(first);
    const third = await rotated(second);
    expect((await blacklist(first.refresh)).status).toBe(200);
    expect((await refresh(third.refresh)).status).toBe(401);
    expect((await api.get('affiliates/', third.access)).status).toBe(401);
  });

  it('works for a partial pair (Back to Login) as for a verified one', async () => {
    const partial = await api.passwordPair('parent');
    expect((await blacklist(partial.refresh)).status).toBe(200);
    expect((await refresh(partial.refresh)).status).toBe(401);
    expect((await api.post('token/verify/', { token: await api.nowCode('parent') }, partial.access)).status).toBe(401);
  });

  it('leaves the other sessions of the account alone', async () => {
    const here = await api.verifiedPair('parent');
    api.server.clock.advance(60_000);
    const elsewhere = await api.verifiedPair('parent');
    expect((await blacklist(here.refresh)).status).toBe(200);
    expect((await api.get('affiliates/', elsewhere.access)).status).toBe(200);
    expect((await refresh(elsewhere.refresh)).status).toBe(200);
  });

  it('answers 401 as SimpleJWT does for a token that is not a live refresh token', async () => {
    const pair = await api.verifiedPair('parent');
    for (const token of ['not-a-token', pair.access, `${pair.refresh.slice(0, -2)}xx`]) {
      const answer = await blacklist(token);
      expect(answer.status, token).toBe(401);
      expect(answer.body).toEqual(INVALID);
    }
    // Expired: a day and a bit later.
    api.server.clock.advance(25 * 60 * 60_000);
    expect((await blacklist(pair.refresh)).body).toEqual(INVALID);
  });

  it('answers 401 for a chain that has ended already (logged out twice)', async () => {
    const pair = await api.verifiedPair('parent');
    expect((await blacklist(pair.refresh)).status).toBe(200);
    const again = await blacklist(pair.refresh);
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ detail: 'Token is blacklisted', code: 'token_not_valid' });
  });

  it('answers 400 with a field error without a refresh token', async () => {
    expectFieldErrors(await api.post('token/blacklist/', {}), { refresh: REQUIRED });
  });
});
