// @vitest-environment node
// Contract tests of the reference v2 API, in process against the test harness's fixtures: success
// answers parse with the SPA's schemas, errors come in Django REST Framework's form, and scope,
// one-time codes, throttling and invites are enforced.
import ExcelJS from 'exceljs';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  affiliateListSchema,
  affiliateReportListSchema,
  connectionFeeListSchema,
  emailSetupSchema,
  errorBodySchema,
  inviteSchema,
  loginResponseSchema,
  paymentEventListSchema,
  refreshResponseSchema,
  registrationResponseSchema,
  tokenPairSchema,
  totpSetupSchema,
} from '../src/api/schemas.ts';
import type { Answer } from '../tests/utils/api-calls.ts';
import {
  BLANK,
  claimsOf,
  errorOf,
  expectDetail,
  expectFieldErrors,
  forged,
  ids,
  MINUTE,
  NOT_A_STRING,
  NOT_FOUND,
  NOV_5,
  NOV_6,
  REQUIRED,
  TOTP_STEP,
  unsigned,
  useContractApi,
} from '../tests/utils/api-contract.ts';
import {
  addFixtures,
  API,
  createTestServer,
  signIn,
  totpCode,
  type FixtureUserName,
} from '../tests/utils/api-server.ts';

const api = useContractApi();
const { call, get, post, user, passwordPair, verifiedPair, nowCode, mailedCode } = api;

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

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('POST token/', () => {
  it('answers a partial pair whose access token carries the spec claims, not yet verified', async () => {
    const answer = await post('token/', { username: 'parent', password: user('parent').password });
    expect(answer.status).toBe(200);
    loginResponseSchema.parse(answer.body);
    const pair = tokenPairSchema.parse(answer.body);
    const { claims } = claimsOf(pair.access);
    expect(claims).toEqual({
      exp: Math.floor(api.server.clock.now() / 1000) + 5 * 60,
      user_id: String(user('parent').id),
      username: 'parent',
      sub: String(user('parent').id),
      '2fa_method': 'totp',
      is_2fa_verified: false,
      affiliate_id: 'P1',
      is_superuser: false,
    });
    expect(decodeJwt(pair.access).user_id).toBe(user('parent').id);
  });

  it('carries the e-mail method, the superuser flag and no affiliate where the account has them', async () => {
    expect(claimsOf((await passwordPair('child')).access).claims).toMatchObject({ '2fa_method': 'email', affiliate_id: 'C1', is_superuser: false });
    expect(claimsOf((await passwordPair('admin')).access).claims).toMatchObject({ '2fa_method': 'totp', affiliate_id: null, is_superuser: true });
  });

  it('leaves 2fa_method out of the token of an account without two-factor authentication', async () => {
    const { raw, claims } = claimsOf((await passwordPair('fresh')).access);
    expect('2fa_method' in raw).toBe(false);
    expect(claims.is_2fa_verified).toBe(false);
  });

  it('accepts the e-mail address and any letter case as the login', async () => {
    expect((await post('token/', { username: 'child@fixtures.example', password: user('child').password })).status).toBe(200);
    expect((await post('token/', { username: 'PARENT', password: user('parent').password })).status).toBe(200);
  });

  it('rejects a wrong password and an unknown user with 401 and a detail', async () => {
    expectDetail(await post('token/', { username: 'parent', password: 'wrong-password' }), 401, /credentials/);
    expectDetail(await post('token/', { username: 'nobody', password: 'whatever-1' }), 401, /credentials/);
  });

  it('answers field errors for missing, mistyped and blank fields', async () => {
    expectFieldErrors(await post('token/', {}), { username: REQUIRED, password: REQUIRED });
    expectFieldErrors(await post('token/', { username: 42, password: 42 }), { username: NOT_A_STRING, password: NOT_A_STRING });
    expectFieldErrors(await post('token/', { username: '  ', password: '' }), { username: BLANK, password: BLANK });
    expectFieldErrors(await post('token/', { username: null, password: 'x' }), { username: ['This field may not be null.'] });
  });

  it('throttles after 5 wrong passwords, even the right one, until the window has passed', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      expectDetail(await post('token/', { username: 'parent', password: `wrong-${attempt}` }), 401);
    }
    expectDetail(await post('token/', { username: 'parent', password: user('parent').password }), 429, /throttled/);
    api.server.clock.advance(15 * MINUTE - 1000);
    expectDetail(await post('token/', { username: 'parent', password: user('parent').password }), 429, /Expected available in 1 seconds/);
    api.server.clock.advance(1000);
    expect((await post('token/', { username: 'parent', password: user('parent').password })).status).toBe(200);
  });

  it('throttles per login: other accounts still sign in', async () => {
    for (let attempt = 0; attempt < 5; attempt++) await post('token/', { username: 'parent', password: 'wrong' });
    expect((await post('token/', { username: 'child', password: user('child').password })).status).toBe(200);
  });

  it('forgets earlier failures after a successful sign-in', async () => {
    for (let attempt = 0; attempt < 4; attempt++) await post('token/', { username: 'parent', password: 'wrong' });
    expect((await post('token/', { username: 'parent', password: user('parent').password })).status).toBe(200);
    for (let attempt = 0; attempt < 4; attempt++) await post('token/', { username: 'parent', password: 'wrong' });
    expect((await post('token/', { username: 'parent', password: user('parent').password })).status).toBe(200);
  });
});

describe('POST token/refresh/', () => {
  it('rotates a verified pair: a new refresh token, the old one then refused, verification kept', async () => {
    const first = await verifiedPair('parent');
    const answer = await post('token/refresh/', { refresh: first.refresh });
    expect(answer.status).toBe(200);
    const second = refreshResponseSchema.parse(answer.body);
    if (!second.refresh) throw new Error('no rotated refresh token');
    expect(second.refresh).not.toBe(first.refresh);
    expect(claimsOf(second.access).claims).toMatchObject({ is_2fa_verified: true, '2fa_method': 'totp', username: 'parent' });

    const replay = await post('token/refresh/', { refresh: first.refresh });
    expect(expectDetail(replay, 401)).toBeTruthy();
    expect(errorOf(replay, 401).code).toBe('token_not_valid');
    // The replay revoked the chain: the successor is refused too.
    expect((await post('token/refresh/', { refresh: second.refresh })).status).toBe(401);
  });

  it('keeps a partial pair partial', async () => {
    const partial = await passwordPair('parent');
    const refreshed = refreshResponseSchema.parse((await post('token/refresh/', { refresh: partial.refresh })).body);
    expect(claimsOf(refreshed.access).claims.is_2fa_verified).toBe(false);
  });

  it('refuses an access token, a forged token and garbage as the refresh token', async () => {
    const pair = await verifiedPair('parent');
    expectDetail(await post('token/refresh/', { refresh: pair.access }), 401);
    expectDetail(await post('token/refresh/', { refresh: await forged(pair.refresh) }), 401);
    expectDetail(await post('token/refresh/', { refresh: 'not.a.token' }), 401);
    expectDetail(await post('token/refresh/', { refresh: unsigned(pair.refresh) }), 401);
  });

  it('refuses an expired refresh token', async () => {
    const pair = await verifiedPair('parent');
    api.server.clock.advance(24 * 60 * MINUTE + 1000);
    expectDetail(await post('token/refresh/', { refresh: pair.refresh }), 401);
  });

  it('answers field errors for a missing, blank or mistyped refresh', async () => {
    expectFieldErrors(await post('token/refresh/', {}), { refresh: REQUIRED });
    expectFieldErrors(await post('token/refresh/', { refresh: '' }), { refresh: BLANK });
    expectFieldErrors(await post('token/refresh/', { refresh: 7 }), { refresh: NOT_A_STRING });
  });
});

describe('POST token/verify/', () => {
  it('accepts the current TOTP code and answers a verified pair', async () => {
    const partial = await passwordPair('parent');
    const answer = await post('token/verify/', { token: await nowCode('parent') }, partial.access);
    expect(answer.status).toBe(200);
    const pair = tokenPairSchema.parse(answer.body);
    expect(claimsOf(pair.access).claims).toMatchObject({ username: 'parent', '2fa_method': 'totp', is_2fa_verified: true, affiliate_id: 'P1' });
    expect((await get('affiliates/', pair.access)).status).toBe(200);
  });

  it('accepts a code one step old (clock drift)', async () => {
    const partial = await passwordPair('parent');
    expect((await post('token/verify/', { token: await nowCode('parent', -TOTP_STEP) }, partial.access)).status).toBe(200);
  });

  it('rejects a code two steps old', async () => {
    const partial = await passwordPair('parent');
    expectFieldErrors(await post('token/verify/', { token: await nowCode('parent', -2 * TOTP_STEP) }, partial.access), { token: true });
  });

  it('rejects a replayed TOTP code', async () => {
    const partial = await passwordPair('parent');
    const token = await nowCode('parent');
    expect((await post('token/verify/', { token }, partial.access)).status).toBe(200);
    expectFieldErrors(await post('token/verify/', { token }, partial.access), { token: ['Invalid or expired code.'] });
    const again = await passwordPair('parent');
    expectFieldErrors(await post('token/verify/', { token }, again.access), { token: true });
  });

  it('rejects an earlier step’s code once a later step’s code was accepted', async () => {
    const partial = await passwordPair('parent');
    expect((await post('token/verify/', { token: await nowCode('parent', TOTP_STEP) }, partial.access)).status).toBe(200);
    expectFieldErrors(await post('token/verify/', { token: await nowCode('parent') }, partial.access), { token: true });
    api.server.clock.advance(2 * TOTP_STEP);
    expect((await post('token/verify/', { token: await nowCode('parent') }, (await passwordPair('parent')).access)).status).toBe(200);
  });

  it('answers field errors for wrong, malformed, blank and missing codes', async () => {
    const partial = await passwordPair('parent');
    const right = await nowCode('parent');
    const wrong = right === '000000' ? '111111' : '000000';
    expectFieldErrors(await post('token/verify/', { token: wrong }, partial.access), { token: ['Invalid or expired code.'] });
    expectFieldErrors(await post('token/verify/', { token: 'abcdef' }, partial.access), { token: true });
    expectFieldErrors(await post('token/verify/', { token: '' }, partial.access), { token: BLANK });
    expectFieldErrors(await post('token/verify/', {}, partial.access), { token: REQUIRED });
    expectFieldErrors(await post('token/verify/', { token: Number(right) }, partial.access), { token: NOT_A_STRING });
  });

  it('throttles after 5 wrong codes, even the right one, until the window has passed', async () => {
    const partial = await passwordPair('parent');
    const right = await nowCode('parent');
    const wrong = right === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt++) {
      expectFieldErrors(await post('token/verify/', { token: wrong }, partial.access), { token: true });
    }
    expectDetail(await post('token/verify/', { token: right }, partial.access), 429, /throttled/);
    // A new password sign-in does not lift it: the limit is per account.
    expectDetail(await post('token/verify/', { token: right }, (await passwordPair('parent')).access), 429);
    api.server.clock.advance(15 * MINUTE);
    const later = await passwordPair('parent');
    expect((await post('token/verify/', { token: await nowCode('parent') }, later.access)).status).toBe(200);
  });

  it('accepts an e-mailed login code once', async () => {
    const partial = await passwordPair('child');
    expect((await post('token/send-email/', undefined, partial.access)).status).toBe(200);
    const token = mailedCode(user('child').email);
    const answer = await post('token/verify/', { token }, partial.access);
    expect(answer.status).toBe(200);
    expect(claimsOf(tokenPairSchema.parse(answer.body).access).claims).toMatchObject({ '2fa_method': 'email', is_2fa_verified: true, affiliate_id: 'C1' });
    expectFieldErrors(await post('token/verify/', { token }, (await passwordPair('child')).access), { token: true });
  });

  it('accepts an e-mailed code until it is 10 minutes old, and not after', async () => {
    await post('token/send-email/', undefined, (await passwordPair('child')).access);
    const first = mailedCode(user('child').email);
    api.server.clock.advance(10 * MINUTE - 1000);
    expect((await post('token/verify/', { token: first }, (await passwordPair('child')).access)).status).toBe(200);

    await post('token/send-email/', undefined, (await passwordPair('child')).access);
    const second = mailedCode(user('child').email);
    api.server.clock.advance(10 * MINUTE);
    expectFieldErrors(await post('token/verify/', { token: second }, (await passwordPair('child')).access), { token: true });
  });

  it('does not take an e-mail setup code as a login code', async () => {
    const partial = await passwordPair('fresh');
    await post('2fa/email/setup/', undefined, partial.access);
    const setupCode = mailedCode(user('fresh').email);
    api.server.db.prepare("UPDATE users SET twofa_method = 'email' WHERE username = 'fresh'").run();
    expectFieldErrors(await post('token/verify/', { token: setupCode }, partial.access), { token: true });
  });

  it('answers 400 for an account without two-factor authentication', async () => {
    expectFieldErrors(await post('token/verify/', { token: '123456' }, (await passwordPair('fresh')).access), {
      non_field_errors: ['Two-factor authentication is not configured for this account.'],
    });
  });

  it('needs a token', async () => {
    expectDetail(await post('token/verify/', { token: '123456' }), 401, 'Authentication credentials were not provided.');
  });
});

describe('POST token/send-email/', () => {
  it('e-mails a six-digit login code to an e-mail-method user', async () => {
    const answer = await post('token/send-email/', undefined, (await passwordPair('child')).access);
    expect(answer.status).toBe(200);
    const messages = api.server.outbox(user('child').email);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.code).toMatch(/^\d{6}$/);
    expect(messages[0]?.body).toContain(messages[0]?.code);
  });

  it('sends a new code on every call (Resend)', async () => {
    const partial = await passwordPair('child');
    await post('token/send-email/', undefined, partial.access);
    await post('token/send-email/', undefined, partial.access);
    expect(api.server.outbox(user('child').email)).toHaveLength(2);
  });

  it('sends a new setup code during e-mail setup, which confirms the pending device', async () => {
    const partial = await passwordPair('fresh');
    const { device_id } = emailSetupSchema.parse((await post('2fa/email/setup/', undefined, partial.access)).body);
    expect(api.server.outbox(user('fresh').email)).toHaveLength(1);
    expect((await post('token/send-email/', undefined, partial.access)).status).toBe(200);
    expect(api.server.outbox(user('fresh').email)).toHaveLength(2);
    const answer = await post('2fa/email/confirm_setup/', { token: mailedCode(user('fresh').email), device_id }, partial.access);
    expect(answer.status).toBe(200);
  });

  it('answers 400 for a TOTP user and for an account with nothing to send', async () => {
    const notConfigured = { non_field_errors: ['E-mail two-factor authentication is not configured for this account.'] };
    expectFieldErrors(await post('token/send-email/', undefined, (await passwordPair('parent')).access), notConfigured);
    expectFieldErrors(await post('token/send-email/', undefined, (await passwordPair('fresh')).access), notConfigured);
    expect(api.server.outbox()).toHaveLength(0);
  });

  it('needs a token', async () => {
    expectDetail(await post('token/send-email/'), 401);
  });
});

describe('POST 2fa/totp/setup/', () => {
  it('answers a device id and an otpauth URL with a Base32 secret', async () => {
    const answer = await post('2fa/totp/setup/', undefined, (await passwordPair('fresh')).access);
    expect(answer.status).toBe(200);
    const { device_id, qr_url } = totpSetupSchema.parse(answer.body);
    expect(device_id).not.toBe('');
    expect(qr_url).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(qr_url).searchParams.get('secret')).toMatch(/^[A-Z2-7]{16,}$/);
  });

  it('refuses (403) a partial token of a user who already has a method', async () => {
    expectDetail(await post('2fa/totp/setup/', undefined, (await passwordPair('parent')).access), 403);
    expectDetail(await post('2fa/totp/setup/', undefined, (await passwordPair('child')).access), 403);
  });

  it('lets a verified session set up a new device', async () => {
    expect((await post('2fa/totp/setup/', undefined, (await verifiedPair('parent')).access)).status).toBe(200);
  });

  it('needs a token', async () => {
    expectDetail(await post('2fa/totp/setup/'), 401);
  });
});

describe('POST 2fa/totp/confirm/', () => {
  async function startSetup(): Promise<{ access: string; deviceId: string; secret: string }> {
    const partial = await passwordPair('fresh');
    const { device_id, qr_url } = totpSetupSchema.parse((await post('2fa/totp/setup/', undefined, partial.access)).body);
    const secret = new URL(qr_url).searchParams.get('secret');
    if (!secret) throw new Error('no secret');
    return { access: partial.access, deviceId: device_id, secret };
  }

  it('confirms with a current code and answers a verified pair with the totp method', async () => {
    const setup = await startSetup();
    const token = await totpCode(setup.secret, api.server.clock.now());
    const answer = await post('2fa/totp/confirm/', { token, device_id: setup.deviceId }, setup.access);
    expect(answer.status).toBe(200);
    const pair = tokenPairSchema.parse(answer.body);
    expect(claimsOf(pair.access).claims).toMatchObject({ username: 'fresh', '2fa_method': 'totp', is_2fa_verified: true, affiliate_id: 'T2' });
    // The code that confirmed the device is spent; the next sign-in asks for a code.
    const next = await passwordPair('fresh');
    expect(claimsOf(next.access).claims['2fa_method']).toBe('totp');
    expectFieldErrors(await post('token/verify/', { token }, next.access), { token: true });
    api.server.clock.advance(TOTP_STEP);
    expect((await post('token/verify/', { token: await totpCode(setup.secret, api.server.clock.now()) }, next.access)).status).toBe(200);
  });

  it('rejects a wrong code and leaves the account without a method', async () => {
    const setup = await startSetup();
    const right = await totpCode(setup.secret, api.server.clock.now());
    const wrong = right === '000000' ? '111111' : '000000';
    expectFieldErrors(await post('2fa/totp/confirm/', { token: wrong, device_id: setup.deviceId }, setup.access), { token: true });
    expect('2fa_method' in decodeJwt((await passwordPair('fresh')).access)).toBe(false);
  });

  it('rejects an unknown device, another user’s device and a device already confirmed', async () => {
    const setup = await startSetup();
    const token = await totpCode(setup.secret, api.server.clock.now());
    expectFieldErrors(await post('2fa/totp/confirm/', { token, device_id: 'no-such-device' }, setup.access), { device_id: true });

    const adminVerified = await verifiedPair('admin');
    const adminDevice = totpSetupSchema.parse((await post('2fa/totp/setup/', undefined, adminVerified.access)).body);
    expectFieldErrors(await post('2fa/totp/confirm/', { token, device_id: adminDevice.device_id }, setup.access), { device_id: true });

    const confirmed = tokenPairSchema.parse((await post('2fa/totp/confirm/', { token, device_id: setup.deviceId }, setup.access)).body);
    api.server.clock.advance(TOTP_STEP);
    const later = await totpCode(setup.secret, api.server.clock.now());
    expectFieldErrors(await post('2fa/totp/confirm/', { token: later, device_id: setup.deviceId }, confirmed.access), { device_id: true });
  });

  it('answers field errors for missing and blank fields', async () => {
    const setup = await startSetup();
    expectFieldErrors(await post('2fa/totp/confirm/', {}, setup.access), { token: REQUIRED, device_id: REQUIRED });
    expectFieldErrors(await post('2fa/totp/confirm/', { token: '', device_id: 5 }, setup.access), { token: BLANK, device_id: NOT_A_STRING });
  });

  it('refuses (403) a partial token of a user who already has a method', async () => {
    const token = await nowCode('parent');
    expectDetail(await post('2fa/totp/confirm/', { token, device_id: 'x' }, (await passwordPair('parent')).access), 403);
  });
});

describe('POST 2fa/email/setup/', () => {
  it('answers a device id and the account’s e-mail, and e-mails a six-digit code', async () => {
    const answer = await post('2fa/email/setup/', undefined, (await passwordPair('fresh')).access);
    expect(answer.status).toBe(200);
    expect(emailSetupSchema.parse(answer.body).email).toBe(user('fresh').email);
    expect(mailedCode(user('fresh').email)).toMatch(/^\d{6}$/);
  });

  it('refuses (403) a partial token of a user who already has a method', async () => {
    expectDetail(await post('2fa/email/setup/', undefined, (await passwordPair('child')).access), 403);
    expectDetail(await post('2fa/email/setup/', undefined, (await passwordPair('parent')).access), 403);
    expect(api.server.outbox()).toHaveLength(0);
  });

  it('needs a token', async () => {
    expectDetail(await post('2fa/email/setup/'), 401);
  });
});

describe('POST 2fa/email/confirm_setup/', () => {
  async function startSetup(): Promise<{ access: string; deviceId: string; code: string }> {
    const partial = await passwordPair('fresh');
    const { device_id } = emailSetupSchema.parse((await post('2fa/email/setup/', undefined, partial.access)).body);
    return { access: partial.access, deviceId: device_id, code: mailedCode(user('fresh').email) };
  }

  it('confirms with the e-mailed code and answers a verified pair with the email method', async () => {
    const setup = await startSetup();
    const answer = await post('2fa/email/confirm_setup/', { token: setup.code, device_id: setup.deviceId }, setup.access);
    expect(answer.status).toBe(200);
    expect(claimsOf(tokenPairSchema.parse(answer.body).access).claims).toMatchObject({ '2fa_method': 'email', is_2fa_verified: true, username: 'fresh' });
    // From now on, signing in takes an e-mailed login code.
    const pair = await signIn(api.server, 'fresh', user('fresh').password);
    expect(claimsOf(pair.access).claims.is_2fa_verified).toBe(true);
  });

  it('rejects a wrong code, and a code of another pending device', async () => {
    const setup = await startSetup();
    const wrong = setup.code === '000000' ? '111111' : '000000';
    expectFieldErrors(await post('2fa/email/confirm_setup/', { token: wrong, device_id: setup.deviceId }, setup.access), { token: true });
    const other = emailSetupSchema.parse((await post('2fa/email/setup/', undefined, setup.access)).body);
    expectFieldErrors(await post('2fa/email/confirm_setup/', { token: setup.code, device_id: other.device_id }, setup.access), { token: true });
  });

  it('rejects a setup code older than 10 minutes', async () => {
    const setup = await startSetup();
    api.server.clock.advance(10 * MINUTE);
    const partial = await passwordPair('fresh');
    expectFieldErrors(await post('2fa/email/confirm_setup/', { token: setup.code, device_id: setup.deviceId }, partial.access), { token: true });
  });

  it('rejects a second confirmation of the same device', async () => {
    const setup = await startSetup();
    const pair = tokenPairSchema.parse((await post('2fa/email/confirm_setup/', { token: setup.code, device_id: setup.deviceId }, setup.access)).body);
    expectFieldErrors(await post('2fa/email/confirm_setup/', { token: setup.code, device_id: setup.deviceId }, pair.access), { device_id: true });
  });

  it('refuses (403) a partial token of a user who already has a method', async () => {
    expectDetail(await post('2fa/email/confirm_setup/', { token: '123456', device_id: 'x' }, (await passwordPair('child')).access), 403);
  });
});

describe('authentication of the data endpoints', () => {
  it('answers 401 with a detail without a token or with a malformed Authorization header', async () => {
    const pair = await verifiedPair('parent');
    for (const { path, query } of DATA_ENDPOINTS) {
      expectDetail(await get(path, undefined, query), 401, 'Authentication credentials were not provided.');
      for (const header of [`Token ${pair.access}`, 'Bearer', `bearer ${pair.access}`]) {
        const response = await api.server.fetch(`${API}/${path}?${new URLSearchParams(query).toString()}`, { headers: { Authorization: header } });
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

describe('GET affiliates/', () => {
  const names = (body: unknown) => affiliateListSchema.parse(body).map((affiliate) => affiliate.affiliate_ID);

  it('answers a parent its affiliate and the children, sorted by name', async () => {
    const answer = await get('affiliates/', (await verifiedPair('parent')).access);
    expect(answer.status).toBe(200);
    expect(affiliateListSchema.parse(answer.body)).toEqual([
      { affiliate_ID: 'C1', name: 'Child One', parent: 'P1' },
      { affiliate_ID: 'C2', name: 'Child Two', parent: 'P1' },
      { affiliate_ID: 'P1', name: 'Parent Travel', parent: null },
    ]);
  });

  it('answers a child only its own affiliate', async () => {
    expect(names((await get('affiliates/', (await verifiedPair('child')).access)).body)).toEqual(['C1']);
  });

  it('shows another top-level affiliate’s user nothing of P1', async () => {
    expect(names((await get('affiliates/', (await verifiedPair('fresh')).access)).body)).toEqual(['T2']);
  });

  it('answers a user without an affiliate an empty list', async () => {
    expect(names((await get('affiliates/', (await verifiedPair('loner')).access)).body)).toEqual([]);
  });

  it('answers a superuser every affiliate', async () => {
    expect(names((await get('affiliates/', (await verifiedPair('admin')).access)).body)).toEqual(['C1', 'C2', 'P1', 'T2']);
  });

  it('limits a superuser impersonating P1 to P1’s tree, and C1 to C1', async () => {
    const { access } = await verifiedPair('admin');
    expect(names((await get('affiliates/', access, { impersonate_affiliate: 'P1' })).body)).toEqual(['C1', 'C2', 'P1']);
    expect(names((await get('affiliates/', access, { impersonate_affiliate: 'C1' })).body)).toEqual(['C1']);
  });

  it('refuses (403) impersonation by a non-superuser, even of its own affiliate', async () => {
    const { access } = await verifiedPair('parent');
    expectDetail(await get('affiliates/', access, { impersonate_affiliate: 'T2' }), 403);
    expectDetail(await get('affiliates/', access, { impersonate_affiliate: 'P1' }), 403);
  });

  it('answers 400 for an unknown affiliate to impersonate', async () => {
    const { access } = await verifiedPair('admin');
    expectFieldErrors(await get('affiliates/', access, { impersonate_affiliate: 'NOPE' }), { impersonate_affiliate: true });
    expectFieldErrors(await get('affiliates/', access, { impersonate_affiliate: '' }), { impersonate_affiliate: true });
  });
});

describe('GET payment_events/', () => {
  const all = { start: '2026-11-01T00:00:00.000Z' };

  it('answers the events of a parent’s tree in the spec’s shape', async () => {
    const answer = await get('payment_events/', (await verifiedPair('parent')).access, all);
    expect(answer.status).toBe(200);
    const events = paymentEventListSchema.parse(answer.body);
    expect(events.map((event) => event.id)).toEqual([101, 102, 103, 105]);
    expect(answer.body).toContainEqual({
      id: 101,
      created: '2026-11-04T10:00:00.000Z',
      amount: '100.00',
      order: {
        affiliate: { affiliate_id: 'P1' },
        affiliate_commission_pc: '10',
        plan: { product: 'Single Trip' },
        policy: [{ policy_number: 'POL-101', travelers: [{ first_name: 'Ann', last_name: 'Lee' }] }],
      },
    });
    expect(events.find((event) => event.id === 105)).toMatchObject({ amount: null, order: { affiliate_commission_pc: null } });
  });

  it('limits a child, another top-level affiliate and an affiliate-less user to their scope', async () => {
    expect(ids((await get('payment_events/', (await verifiedPair('child')).access, all)).body)).toEqual([102]);
    expect(ids((await get('payment_events/', (await verifiedPair('fresh')).access, all)).body)).toEqual([104]);
    expect(ids((await get('payment_events/', (await verifiedPair('loner')).access, all)).body)).toEqual([]);
  });

  it('answers a superuser every event, or one tree when impersonating', async () => {
    const { access } = await verifiedPair('admin');
    expect(ids((await get('payment_events/', access, all)).body)).toEqual([101, 102, 103, 104, 105]);
    expect(ids((await get('payment_events/', access, { ...all, impersonate_affiliate: 'P1' })).body)).toEqual([101, 102, 103, 105]);
    expect(ids((await get('payment_events/', access, { ...all, impersonate_affiliate: 'T2' })).body)).toEqual([104]);
  });

  it('includes start and excludes end, comparing instants across offsets', async () => {
    const { access } = await verifiedPair('admin');
    const answer = await get('payment_events/', access, { start: NOV_5, end: NOV_6 });
    expect(ids(paymentEventListSchema.parse(answer.body))).toEqual([102, 103, 104]);
    // The same instants written in another offset.
    expect(ids((await get('payment_events/', access, { start: '2026-11-04T18:00:00.000-05:00', end: '2026-11-05T18:00:00.000-05:00' })).body)).toEqual([102, 103, 104]);
    expect(ids((await get('payment_events/', access, { start: '2026-11-05T00:00:00.000-05:00', end: '2026-11-06T00:00:00.000-05:00' })).body)).toEqual([103, 104, 105]);
  });

  it('reads everything from start on when end is omitted', async () => {
    const { access } = await verifiedPair('admin');
    expect(ids((await get('payment_events/', access, { start: NOV_5 })).body)).toEqual([102, 103, 104, 105]);
    expect(ids((await get('payment_events/', access, { start: '2026-11-06T00:00:00.000Z' })).body)).toEqual([]);
  });

  it('answers field errors for a missing or invalid start and an invalid end', async () => {
    const { access } = await verifiedPair('parent');
    expectFieldErrors(await get('payment_events/', access), { start: REQUIRED });
    expectFieldErrors(await get('payment_events/', access, { start: '' }), { start: REQUIRED });
    expectFieldErrors(await get('payment_events/', access, { start: 'yesterday' }), { start: true });
    expectFieldErrors(await get('payment_events/', access, { start: '2026-13-45T00:00:00Z' }), { start: true });
    expectFieldErrors(await get('payment_events/', access, { start: NOV_5, end: 'soon' }), { end: true });
    // Outside what the stored text compares correctly (and what Django accepts).
    expectFieldErrors(await get('payment_events/', access, { start: '+275760-09-13T00:00:00Z' }), { start: true });
    expectFieldErrors(await get('payment_events/', access, { start: '0000-12-31T00:00:00Z' }), { start: true });
    expectFieldErrors(await get('payment_events/', access, { start: NOV_5, end: '10000-01-01T00:00:00Z' }), { end: true });
    expectFieldErrors(await get('payment_events/', access, { start: '2026-11-05T00:00:00+99:00' }), { start: true });
    expectFieldErrors(await get('payment_events/', access, { end: NOV_6 }), { start: REQUIRED });
  });
});

describe('GET connection_fees/', () => {
  const all = { start: '2026-11-01T00:00:00.000Z' };

  it('answers a parent the fees on its children’s sales', async () => {
    const answer = await get('connection_fees/', (await verifiedPair('parent')).access, all);
    expect(answer.status).toBe(200);
    const fees = connectionFeeListSchema.parse(answer.body);
    expect(fees).toEqual([
      { id: 102, created: '2026-11-04T23:00:00.000Z', amount: '50.00', affiliate: { affiliate_id: 'C1' }, connection_fee_pc: '10', connection_fee_amount: null },
      { id: 103, created: '2026-11-05T08:15:00.000Z', amount: '80.00', affiliate: { affiliate_id: 'C2' }, connection_fee_pc: null, connection_fee_amount: '4.00' },
    ]);
  });

  it('answers a child without children no fees, and nothing of P1 to another affiliate', async () => {
    expect(ids((await get('connection_fees/', (await verifiedPair('child')).access, all)).body)).toEqual([]);
    expect(ids((await get('connection_fees/', (await verifiedPair('fresh')).access, all)).body)).toEqual([]);
    expect(ids((await get('connection_fees/', (await verifiedPair('loner')).access, all)).body)).toEqual([]);
  });

  it('answers a superuser every fee, or those of the impersonated tree', async () => {
    const { access } = await verifiedPair('admin');
    expect(ids((await get('connection_fees/', access, all)).body)).toEqual([102, 103]);
    expect(ids((await get('connection_fees/', access, { ...all, impersonate_affiliate: 'P1' })).body)).toEqual([102, 103]);
    expect(ids((await get('connection_fees/', access, { ...all, impersonate_affiliate: 'C1' })).body)).toEqual([]);
    expect(ids((await get('connection_fees/', access, { ...all, impersonate_affiliate: 'T2' })).body)).toEqual([]);
  });

  it('includes start and excludes end, with offsets', async () => {
    const { access } = await verifiedPair('parent');
    // 103 was created at 2026-11-05T09:15:00.000+01:00 exactly.
    expect(ids((await get('connection_fees/', access, { start: NOV_5, end: '2026-11-05T09:15:00.000+01:00' })).body)).toEqual([102]);
    expect(ids((await get('connection_fees/', access, { start: '2026-11-05T09:15:00.000+01:00' })).body)).toEqual([103]);
    expect(ids((await get('connection_fees/', access, { start: NOV_5, end: NOV_6 })).body)).toEqual([102, 103]);
  });

  it('answers field errors for a missing or invalid start', async () => {
    const { access } = await verifiedPair('parent');
    expectFieldErrors(await get('connection_fees/', access), { start: REQUIRED });
    expectFieldErrors(await get('connection_fees/', access, { start: 'not-a-date' }), { start: true });
  });
});

describe('GET reports/affiliate/', () => {
  it('answers a parent the reports of its tree, including both reports of one period', async () => {
    const answer = await get('reports/affiliate/', (await verifiedPair('parent')).access);
    expect(answer.status).toBe(200);
    const reports = affiliateReportListSchema.parse(answer.body);
    expect(reports.map((report) => report.id).sort()).toEqual([1, 2, 3, 4]);
    expect(reports.find((report) => report.id === 3)).toEqual({
      id: 3,
      report_date: '2026-12-16',
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      affiliate_id: 'P1',
      sales: 2,
      premium_collected: '100.00',
      commission: '10.00',
      connection_fees: '6.50',
    });
  });

  it('limits a child and another top-level affiliate to their own reports', async () => {
    expect(ids((await get('reports/affiliate/', (await verifiedPair('child')).access)).body)).toEqual([4]);
    expect(ids((await get('reports/affiliate/', (await verifiedPair('fresh')).access)).body)).toEqual([5]);
    expect(ids((await get('reports/affiliate/', (await verifiedPair('loner')).access)).body)).toEqual([]);
  });

  it('answers a superuser every report, or the impersonated affiliate’s', async () => {
    const { access } = await verifiedPair('admin');
    expect(ids((await get('reports/affiliate/', access)).body).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(ids((await get('reports/affiliate/', access, { impersonate_affiliate: 'T2' })).body)).toEqual([5]);
  });
});

describe('GET reports/affiliate/{id}/download/', () => {
  async function download(id: number | string, access: string): Promise<Answer> {
    return get(`reports/affiliate/${id}/download/`, access);
  }

  it('answers an .xlsx named report-{id}-{report_date}.xlsx that exceljs can read', async () => {
    const answer = await download(3, (await verifiedPair('parent')).access);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(XLSX_TYPE);
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="report-3-2026-12-16.xlsx"');
    expect(answer.body).toBeInstanceOf(ArrayBuffer);
    const workbook = await new ExcelJS.Workbook().xlsx.load(Buffer.from(answer.body as ArrayBuffer) as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Summary', 'Sales', 'Connection Fees']);
    expect(workbook.getWorksheet('Summary')?.getCell('B1').value).toBe('Parent Travel');
    // P1's own November sales (101, 105) and the fees on C1's and C2's sales, under a header row.
    expect(workbook.getWorksheet('Sales')?.rowCount).toBe(3);
    expect(workbook.getWorksheet('Connection Fees')?.rowCount).toBe(3);
  });

  it('lets a parent download a child’s report and a superuser any report', async () => {
    expect((await download(4, (await verifiedPair('parent')).access)).status).toBe(200);
    const admin = await verifiedPair('admin');
    expect((await download(5, admin.access)).headers.get('content-disposition')).toContain('report-5-2026-12-15.xlsx');
  });

  it('answers 404 for an unknown or malformed report id', async () => {
    const { access } = await verifiedPair('parent');
    expectDetail(await download(999, access), 404, NOT_FOUND);
    for (const id of ['abc', '1e0', '0x1', '1.0', '-1', '%201', '99999999999999999999']) {
      expectDetail(await download(id, access), 404, NOT_FOUND);
    }
  });

  it('answers 404 for a report out of scope', async () => {
    expectDetail(await download(2, (await verifiedPair('child')).access), 404, NOT_FOUND);
    expectDetail(await download(3, (await verifiedPair('fresh')).access), 404, NOT_FOUND);
    const admin = await verifiedPair('admin');
    const outside = await api.server.fetch(`${API}/reports/affiliate/5/download/?impersonate_affiliate=P1`, { headers: { Authorization: `Bearer ${admin.access}` } });
    expect(outside.status).toBe(404);
  });
});

describe('GET affiliates/invites/{inviteId}/', () => {
  it('answers the invited affiliate’s name without a token', async () => {
    const answer = await get(`affiliates/invites/${api.fx.invites.valid}/`);
    expect(answer.status).toBe(200);
    expect(inviteSchema.parse(answer.body).affiliate.name).toBe('Child Two');
  });

  it('answers 404 {"detail":"Not found."} for unknown, expired and used invites', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', api.fx.invites.expired, api.fx.invites.used]) {
      const answer = await get(`affiliates/invites/${id}/`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ detail: NOT_FOUND });
    }
  });

  it('answers 404 once the invite has expired', async () => {
    api.server.clock.advance(7 * 24 * 60 * MINUTE);
    expectDetail(await get(`affiliates/invites/${api.fx.invites.valid}/`), 404, NOT_FOUND);
  });
});

describe('POST affiliates/invites/register/', () => {
  const register = (body: Record<string, unknown>) => post('affiliates/invites/register/', body);
  const valid = (): Record<string, unknown> => ({ email: 'new.user@fixtures.example', password: 'a-long-password', invite_id: api.fx.invites.valid });
  const without = (field: string) => Object.fromEntries(Object.entries(valid()).filter(([key]) => key !== field));

  it('registers a user of the invited affiliate with an unverified token without a method', async () => {
    const answer = await register(valid());
    expect(answer.status).toBe(201);
    const { user: created, tokens } = registrationResponseSchema.parse(answer.body);
    loginResponseSchema.parse(answer.body);
    expect(created.username).toBe('new.user@fixtures.example');
    const { raw, claims } = claimsOf(tokens.access);
    expect('2fa_method' in raw).toBe(false);
    expect(claims).toMatchObject({ is_2fa_verified: false, affiliate_id: 'C2', is_superuser: false, username: 'new.user@fixtures.example' });
    expectDetail(await get('affiliates/', tokens.access), 403);
    expect((await post('token/', { username: 'new.user@fixtures.example', password: 'a-long-password' })).status).toBe(200);
    // The new user goes on to set up two-factor authentication with the same token.
    expect((await post('2fa/totp/setup/', undefined, tokens.access)).status).toBe(200);
  });

  it('uses an invite once: a second registration answers non_field_errors and the invite is gone', async () => {
    expect((await register(valid())).status).toBe(201);
    expectFieldErrors(await register({ ...valid(), email: 'second@fixtures.example' }), { non_field_errors: true });
    expectDetail(await get(`affiliates/invites/${api.fx.invites.valid}/`), 404, NOT_FOUND);
  });

  it('answers non_field_errors for expired, used and unknown invites', async () => {
    for (const invite_id of [api.fx.invites.expired, api.fx.invites.used, 'no-such-invite']) {
      expectFieldErrors(await register({ ...valid(), invite_id }), { non_field_errors: true });
    }
    api.server.clock.advance(7 * 24 * 60 * MINUTE);
    expectFieldErrors(await register(valid()), { non_field_errors: true });
  });

  it('answers e-mail field errors: required, blank, invalid, taken (in any case)', async () => {
    expectFieldErrors(await register(without('email')), { email: REQUIRED });
    expectFieldErrors(await register({ ...valid(), email: '' }), { email: BLANK });
    expectFieldErrors(await register({ ...valid(), email: 'not-an-email' }), { email: ['Enter a valid email address.'] });
    expectFieldErrors(await register({ ...valid(), email: 123 }), { email: NOT_A_STRING });
    expectFieldErrors(await register({ ...valid(), email: 'child@fixtures.example' }), { email: ['A user with that email already exists.'] });
    expectFieldErrors(await register({ ...valid(), email: 'CHILD@Fixtures.Example' }), { email: true });
    expectFieldErrors(await register({ ...valid(), email: 'parent' }), { email: true });
  });

  it('answers password field errors: required, blank, too short, mistyped', async () => {
    expectFieldErrors(await register(without('password')), { password: REQUIRED });
    expectFieldErrors(await register({ ...valid(), password: '' }), { password: BLANK });
    // Not a common password either: 'short' is on the common-password list.
    expectFieldErrors(await register({ ...valid(), password: 'Qx7#kz' }), {
      password: ['This password is too short. It must contain at least 8 characters.'],
    });
    expectFieldErrors(await register({ ...valid(), password: 12345678 }), { password: NOT_A_STRING });
  });

  it('answers every field error at once, and keeps the invite after a failed attempt', async () => {
    expectFieldErrors(await register({}), { email: REQUIRED, password: REQUIRED, invite_id: REQUIRED });
    expectFieldErrors(await register({ email: 'x', password: 'y', invite_id: '' }), { email: true, password: true, invite_id: BLANK });
    expect((await get(`affiliates/invites/${api.fx.invites.valid}/`)).status).toBe(200);
    expect((await register(valid())).status).toBe(201);
  });
});

describe('request bodies', () => {
  const raw = (path: string, body: string | Uint8Array, contentType?: string, access?: string) =>
    call('POST', path, { raw: body, contentType, access });

  it('answers malformed JSON with {"detail": "JSON parse error - ..."}', async () => {
    expectDetail(await raw('token/', '{"username": "parent",', 'application/json'), 400, /^JSON parse error - /);
    expectDetail(await raw('token/', "{'username': 'parent'}", 'application/json; charset=utf-8'), 400, /^JSON parse error - /);
  });

  it('answers a JSON array, string or null body with non_field_errors', async () => {
    expectFieldErrors(await raw('token/', '[{"username": "parent"}]', 'application/json'), {
      non_field_errors: ['Invalid data. Expected a dictionary, but got list.'],
    });
    expectFieldErrors(await raw('token/refresh/', '"text"', 'application/json'), { non_field_errors: true });
    expectFieldErrors(await raw('affiliates/invites/register/', 'null', 'application/json'), { non_field_errors: true });
  });

  it('answers 413 for a body over 64 KiB, and reads one just under it', async () => {
    const padded = (size: number) => `{"username": "parent", "password": "wrong", "pad": "${'x'.repeat(size - 50)}"}`;
    expectDetail(await raw('token/', padded(64 * 1024 + 10), 'application/json'), 413);
    expectDetail(await raw('token/', padded(64 * 1024 - 100), 'application/json'), 401);
    const access = (await passwordPair('parent')).access;
    expectDetail(await raw('token/verify/', padded(70 * 1024), 'application/json', access), 413);
  });

  it('answers 415 for a body that is not JSON', async () => {
    expectDetail(await raw('token/', 'username=parent&password=x', 'application/x-www-form-urlencoded'), 415);
    expectDetail(await raw('token/', '{"username": "parent", "password": "x"}', 'text/plain'), 415);
    expectDetail(await raw('affiliates/invites/register/', '--x\r\n\r\n--x--', 'multipart/form-data; boundary=x'), 415);
  });

  it('answers 404 {"detail":"Not found."} for unknown API paths and missing trailing slashes', async () => {
    for (const path of ['nope/', 'token', 'affiliates', 'payment_events', 'affiliates/invites/', 'api/v2/token/']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ detail: NOT_FOUND });
    }
  });

  describe('garbage at every POST endpoint', () => {
    const BIG = 'x'.repeat(60_000);
    /** Built per test: one body uses the fixtures' valid invite with a password over the maximum. */
    const garbage = (): { body: string | Uint8Array; type?: string }[] => [
      { body: '' },
      { body: '', type: 'application/json' },
      { body: ' \n\t ', type: 'application/json' },
      ...['null', 'true', '0', '-1.5e308', '"text"', '[]', '[{}]', '[1,2,3]', '{', '}', '{"a":', '{"a" 1}', 'undefined', 'NaN', '\u0000', '\uFEFF{}', '{}{}'].map(
        (body) => ({ body, type: 'application/json' }),
      ),
      { body: '['.repeat(5000) + ']'.repeat(5000), type: 'application/json' },
      { body: JSON.stringify({ username: null, password: null, refresh: null, token: null, device_id: null, email: null, invite_id: null }), type: 'application/json' },
      { body: JSON.stringify({ username: 1, password: 2, refresh: 3, token: 4, device_id: 5, email: 6, invite_id: 7 }), type: 'application/json' },
      { body: JSON.stringify({ username: [], password: {}, refresh: [], token: [], device_id: {}, email: [], invite_id: {} }), type: 'application/json' },
      { body: JSON.stringify({ username: true, password: false, refresh: true, token: false, device_id: true, email: true, invite_id: false }), type: 'application/json' },
      { body: '{"__proto__": {"username": "parent", "password": "x"}, "constructor": {"prototype": {}}}', type: 'application/json' },
      { body: JSON.stringify({ username: '\ud800', password: '\udfff', refresh: '\ud800', token: '\ud800', device_id: '\ud800', email: '\ud800@x.y', invite_id: '\ud800' }), type: 'application/json' },
      { body: JSON.stringify({ username: BIG, password: 'x', refresh: BIG, token: BIG, device_id: BIG, email: `${BIG}@x.y`, invite_id: 'x' }), type: 'application/json' },
      { body: JSON.stringify({ token: '１２３４５６', device_id: "' OR 1=1 --", refresh: 'a.b.c', email: 'a@b.co', password: 'p'.repeat(200), invite_id: api.fx.invites.valid }), type: 'application/json' },
      { body: JSON.stringify({ username: 'parent', password: 'wrong-password', email: 'a@b.co', password2: 'x', invite_id: "' OR 1=1 --" }), type: 'application/json' },
      { body: `{"pad": "${'y'.repeat(70_000)}"}`, type: 'application/json' },
      { body: new Uint8Array([0xff, 0xfe, 0x7b, 0x22, 0x80, 0x22, 0x7d]), type: 'application/json' },
      { body: '{"username": "parent"}', type: 'text/plain' },
      { body: 'username=parent&password=x', type: 'application/x-www-form-urlencoded' },
      { body: '<xml/>', type: 'application/xml' },
      { body: '{"token": "123456"}', type: 'application/vnd.api+json' },
      { body: '{"token": "123456"}', type: 'not a media type' },
    ];

    /** Each POST endpoint with the caller that gets furthest into it; garbage must never succeed or fail with 5xx. */
    const ENDPOINTS: { path: string; as: FixtureUserName | null }[] = [
      { path: 'token/', as: null },
      { path: 'token/refresh/', as: null },
      { path: 'affiliates/invites/register/', as: null },
      { path: 'token/verify/', as: 'parent' },
      { path: 'token/verify/', as: 'child' },
      { path: 'token/send-email/', as: 'parent' },
      { path: '2fa/totp/setup/', as: 'parent' },
      { path: '2fa/totp/confirm/', as: 'fresh' },
      { path: '2fa/email/setup/', as: 'parent' },
      { path: '2fa/email/confirm_setup/', as: 'fresh' },
    ];

    for (const { path, as } of ENDPOINTS) {
      it(`never answers ${path}${as ? ` (as ${as})` : ''} with anything but a 4xx error`, async () => {
        const callers: (string | undefined)[] = as ? [undefined, (await passwordPair(as)).access] : [undefined];
        for (const access of callers) {
          for (const [index, { body, type }] of garbage().entries()) {
            const answer = await raw(path, body, type, access);
            const label = `${path} garbage #${index} ${access ? 'with' : 'without'} a token`;
            expect(answer.status, label).toBeGreaterThanOrEqual(400);
            expect(answer.status, label).toBeLessThan(500);
            expect(() => errorBodySchema.parse(answer.body), label).not.toThrow();
          }
        }
      });
    }
  });
});

describe('garbage in query strings and paths', () => {
  it('never answers the GET endpoints with a 5xx', async () => {
    const { access } = await verifiedPair('admin');
    const starts = ['\u0000', 'x'.repeat(10_000), '2026-11-05T00:00:00+99:00', '+275760-09-13T00:00:00Z', '-000001-01-01T00:00:00Z', '2026-02-30', 'P1D', '1e10', '[]', "' OR 1=1 --"];
    const paths: string[] = [];
    for (const start of starts) {
      for (const path of ['payment_events/', 'connection_fees/']) {
        paths.push(`${path}?${new URLSearchParams({ start }).toString()}`, `${path}?${new URLSearchParams({ start: NOV_5, end: start }).toString()}`);
      }
    }
    // An unencoded "+" of an offset reads as a space, as in Django.
    paths.push('payment_events/?start=2026-11-05T00:00:00.000+01:00');
    for (const id of ['-1', '0', '1e0', '0x1', '99999999999999999999', '%00', '%E0%A4%A', '..%2F..%2F', "1'%20OR%201=1"]) {
      paths.push(`reports/affiliate/${id}/download/`, `affiliates/invites/${id}/`);
    }
    for (const affiliate of ['%00', 'P1%27--', 'x'.repeat(5000)]) paths.push(`affiliates/?impersonate_affiliate=${affiliate}`);
    for (const path of paths) {
      const response = await api.server.fetch(`${API}/${path}`, { headers: { Authorization: `Bearer ${access}` } });
      expect(response.status, path.slice(0, 80)).toBeLessThan(500);
      const body: unknown = await response.json();
      if (response.status !== 200) expect(() => errorBodySchema.parse(body), path.slice(0, 80)).not.toThrow();
    }
  });
});

describe('unknown paths and methods', () => {
  it('answers a path the API does not have with 404', async () => {
    expectDetail(await get('no_such_endpoint/'), 404, 'Not found.');
    expectDetail(await get('token/extra/'), 404, 'Not found.');
  });

  it('answers a known path asked with another method with 405 and the allowed methods, as DRF does', async () => {
    const { access } = await verifiedPair('parent');
    const wrongGet = await api.server.fetch(`${API}/token/`);
    expect(wrongGet.status).toBe(405);
    expect(wrongGet.headers.get('Allow')).toBe('POST, OPTIONS');
    expect(await wrongGet.json()).toEqual({ detail: 'Method "GET" not allowed.' });
    expectDetail(await post('affiliates/', {}, access), 405, 'Method "POST" not allowed.');
    const wrongDelete = await api.server.fetch(`${API}/reports/affiliate/1/download/`, { method: 'DELETE', headers: { Authorization: `Bearer ${access}` } });
    expect(wrongDelete.status).toBe(405);
    expect(wrongDelete.headers.get('Allow')).toBe('GET, OPTIONS');
  });
});

describe('the test harness', () => {
  it('routes absolute and relative URLs and Request objects to the app', async () => {
    const absolute = await api.server.fetch(`http://portal.test${API}/affiliates/invites/${api.fx.invites.valid}/`);
    const relative = await api.server.fetch(`${API}/affiliates/invites/${api.fx.invites.valid}/`);
    const request = await api.server.fetch(new Request(`http://elsewhere.test${API}/affiliates/invites/${api.fx.invites.valid}/`));
    for (const response of [absolute, relative, request]) expect(response.status).toBe(200);
  });

  it('lists the outbox at /__dev/outbox in demo mode only', async () => {
    await post('token/send-email/', undefined, (await passwordPair('child')).access);
    expect((await api.server.fetch('/__dev/outbox')).status).toBe(404);
    const demo = createTestServer({ demo: true });
    const demoFixtures = addFixtures(demo.db);
    const pair = await signIn(demo, 'child', demoFixtures.users.child.password);
    expect(claimsOf(pair.access).claims.is_2fa_verified).toBe(true);
    const listed = (await (await demo.fetch(`/__dev/outbox?to=${encodeURIComponent(demoFixtures.users.child.email)}`)).json()) as unknown[];
    expect(listed).toHaveLength(1);
    // An empty 'to' (a form left blank) lists everything.
    expect((await (await demo.fetch('/__dev/outbox?to=')).json()) as unknown[]).toHaveLength(1);
  });

  it('signs in twice within one TOTP step', async () => {
    await verifiedPair('parent');
    const again = await verifiedPair('parent');
    expect(claimsOf(again.access).claims.is_2fa_verified).toBe(true);
  });
});
