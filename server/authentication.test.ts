// @vitest-environment node
// Who may call the data endpoints: no token, a malformed header, a forged, unsigned, expired or
// refresh token answer 401; a partial token (two-factor authentication not yet passed) 403.
import { describe, expect, it } from 'vitest';
import { claimsOf, errorOf, expectDetail, forged, MINUTE, NOV_5, NOV_6, unsigned, useContractApi } from '../tests/utils/api-contract.ts';
import { API } from '../tests/utils/api-server.ts';

const api = useContractApi();
const { get, post, passwordPair, verifiedPair } = api;

/** The authenticated GET endpoints, with a valid query. */
const DATA_ENDPOINTS: { path: string; query?: Record<string, string> }[] = [
  { path: 'affiliates/' },
  { path: 'payment_events/', query: { start: NOV_5, end: NOV_6 } },
  { path: 'connection_fees/', query: { start: NOV_5 } },
  { path: 'reports/affiliate/' },
  { path: 'reports/affiliate/2/download/' },
];

/** The POST endpoints that take a token (verified or not). */
const TOKEN_POST_ENDPOINTS = [
  'token/send-email/',
  'token/verify/',
  '2fa/totp/setup/',
  '2fa/totp/confirm/',
  '2fa/email/setup/',
  '2fa/email/confirm_setup/',
];

describe('authentication of the data endpoints', () => {
  it('answers 401 with a detail without a token or with a malformed Authorization header', async () => {
    const pair = await verifiedPair('parent');
    for (const { path, query } of DATA_ENDPOINTS) {
      expectDetail(await get(path, undefined, query), 401, 'Authentication credentials were not provided.');
      for (const header of [`Token ${pair.access}`, 'Bearer', `bearer ${pair.access}`]) {
        const response = await api.server.fetch(`${API}/${path}?${new URLSearchParams(query).toString()}`, {
          headers: { Authorization: header },
        });
        expect(response.status, `${path} with "${header.slice(0, 12)}"`).toBe(401);
      }
    }
  });

  it('answers 401 for a forged token, an unsigned token and garbage', async () => {
    const pair = await verifiedPair('parent');
    for (const token of [await forged(pair.access), unsigned(pair.access), 'garbage', 'a.b.c']) {
      for (const { path, query } of DATA_ENDPOINTS) {
        const answer = await get(path, token, query);
        expectDetail(answer, 401);
        expect(errorOf(answer, 401).code).toBe('token_not_valid');
      }
    }
  });

  it('answers 401 once the access token has expired', async () => {
    const pair = await verifiedPair('parent');
    api.server.clock.advance(5 * MINUTE - 1000);
    expect((await get('affiliates/', pair.access)).status).toBe(200);
    api.server.clock.advance(1000);
    for (const { path, query } of DATA_ENDPOINTS) expectDetail(await get(path, pair.access, query), 401);
  });

  it('answers 401 for a refresh token used as an access token', async () => {
    const pair = await verifiedPair('parent');
    for (const { path, query } of DATA_ENDPOINTS) expectDetail(await get(path, pair.refresh, query), 401);
    for (const path of TOKEN_POST_ENDPOINTS) expectDetail(await post(path, {}, pair.refresh), 401);
  });

  it('answers 401 on every token-taking POST without a token', async () => {
    for (const path of TOKEN_POST_ENDPOINTS) expectDetail(await post(path, {}), 401);
  });

  it('answers 403 when a partial token calls a data endpoint', async () => {
    const partial = await passwordPair('parent');
    for (const { path, query } of DATA_ENDPOINTS) expectDetail(await get(path, partial.access, query), 403);
  });

  it('honours a custom access lifetime', async () => {
    api.restart({ accessLifetimeSeconds: 60 });
    const pair = await verifiedPair('parent');
    expect(claimsOf(pair.access).claims.exp).toBe(Math.floor(api.server.clock.now() / 1000) + 60);
    api.server.clock.advance(MINUTE);
    expectDetail(await get('affiliates/', pair.access), 401);
  });
});
