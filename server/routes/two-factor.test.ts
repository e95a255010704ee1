// @vitest-environment node
// Two-factor setup against the test fixtures: 2fa/totp/setup/ and confirm/, 2fa/email/setup/ and
// confirm_setup/. Only an account without a method may set one up; confirming answers a verified
// pair.
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { emailSetupSchema, tokenPairSchema, totpSetupSchema } from '../../src/api/schemas.ts';
import {
  BLANK,
  claimsOf,
  expectDetail,
  expectFieldErrors,
  expectVerifiedPair,
  MINUTE,
  NOT_A_STRING,
  REQUIRED,
  TOTP_STEP,
  useContractApi,
} from '../../tests/utils/api-contract.ts';
import { signIn, totpCode } from '../../tests/utils/api-server.ts';
import { PENDING_DEVICES_KEPT } from './two-factor.ts';

const api = useContractApi();
const { post, postHeld, user, passwordPair, verifiedPair, nowCode, mailedCode } = api;

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

  it('refuses (403) a verified session too: an access token alone never replaces the account’s method', async () => {
    expectDetail(await post('2fa/totp/setup/', undefined, (await verifiedPair('parent')).access), 403);
    expectDetail(await post('2fa/email/setup/', undefined, (await verifiedPair('admin')).access), 403);
  });

  it('needs a token', async () => {
    expectDetail(await post('2fa/totp/setup/'), 401);
  });

  it('answers the same device and secret to a setup started again within 10 minutes, and a new one after', async () => {
    const setUp = async (access: string) => totpSetupSchema.parse((await post('2fa/totp/setup/', undefined, access)).body);
    const secretOf = (setup: { qr_url: string }) => new URL(setup.qr_url).searchParams.get('secret');
    const old = await setUp((await passwordPair('fresh')).access);
    api.server.clock.advance(10 * MINUTE);
    const first = await setUp((await passwordPair('fresh')).access);
    expect(first.device_id).not.toBe(old.device_id);
    expect(secretOf(first)).not.toBe(secretOf(old));

    // The user went back to the login screen and signed in again: the key they scanned still fits.
    api.server.clock.advance(10 * MINUTE - 1_000);
    const partial = await passwordPair('fresh');
    expect(await setUp(partial.access)).toEqual(first);
    const token = await totpCode(secretOf(first) ?? '', api.server.clock.now());
    expect((await post('2fa/totp/confirm/', { token, device_id: first.device_id }, partial.access)).status).toBe(200);
  });

  it('keeps only the newest few devices waiting for confirmation, whatever kind, however often one sets up', async () => {
    const setUp = async (path: string) =>
      ((await post(path, undefined, (await passwordPair('fresh')).access)).body as { device_id: string }).device_id;
    const first = await setUp('2fa/email/setup/');
    const later: string[] = [];
    // Each setup after the last one's reuse window: a new device every time.
    for (let setup = 0; setup < PENDING_DEVICES_KEPT + 3; setup++) {
      api.server.clock.advance(10 * MINUTE);
      later.push(await setUp('2fa/totp/setup/'));
    }
    expect(new Set(later).size).toBe(later.length);
    const partial = await passwordPair('fresh');
    const pending = api.server.db.prepare('SELECT id FROM devices WHERE user_id = ? AND confirmed_at IS NULL').all(user('fresh').id);
    expect(pending.map((row) => (row as { id: string }).id).sort()).toEqual(later.slice(-PENDING_DEVICES_KEPT).sort());
    expectFieldErrors(
      await post('2fa/email/confirm_setup/', { token: mailedCode(user('fresh').email), device_id: first }, partial.access),
      {
        device_id: ['Invalid device.'],
      },
    );
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
    expectVerifiedPair(answer, { username: 'fresh', '2fa_method': 'totp', affiliate_id: 'T2' });
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

  it('rejects an unknown device and another user’s device; once confirmed, the account has its method (403)', async () => {
    const setup = await startSetup();
    const token = await totpCode(setup.secret, api.server.clock.now());
    expectFieldErrors(await post('2fa/totp/confirm/', { token, device_id: 'no-such-device' }, setup.access), { device_id: true });

    api.server.db
      .prepare("INSERT INTO devices (id, user_id, kind, secret, created_at) VALUES ('admins-device', ?, 'totp', ?, ?)")
      .run(user('admin').id, setup.secret, api.server.clock.now());
    expectFieldErrors(await post('2fa/totp/confirm/', { token, device_id: 'admins-device' }, setup.access), { device_id: true });

    const confirmed = tokenPairSchema.parse((await post('2fa/totp/confirm/', { token, device_id: setup.deviceId }, setup.access)).body);
    api.server.clock.advance(TOTP_STEP);
    const later = await totpCode(setup.secret, api.server.clock.now());
    expectDetail(await post('2fa/totp/confirm/', { token: later, device_id: setup.deviceId }, confirmed.access), 403);
  });

  /** Two devices waiting at once: the second set up after the first one's reuse window (with the second's fresh token). */
  async function twoSetups() {
    const first = await startSetup();
    api.server.clock.advance(10 * MINUTE);
    const second = await startSetup();
    expect(second.deviceId).not.toBe(first.deviceId);
    return { first: { ...first, access: second.access }, second };
  }

  it('refuses (403) a confirmation whose body came only after another had set the method', async () => {
    const { first, second } = await twoSetups();
    const held = postHeld(
      '2fa/totp/confirm/',
      { token: await totpCode(first.secret, api.server.clock.now()), device_id: first.deviceId },
      first.access,
    );
    await held.reading;
    const token = await totpCode(second.secret, api.server.clock.now());
    expect((await post('2fa/totp/confirm/', { token, device_id: second.deviceId }, second.access)).status).toBe(200);
    expectDetail(await held.send(), 403);
  });

  it('lets one of two confirmations checked at once set the method, and leaves the other device pending', async () => {
    const { first, second } = await twoSetups();
    const now = api.server.clock.now();
    // Their bodies held until both are waiting, then sent together: each checks its code while the other does.
    const held = [
      postHeld('2fa/totp/confirm/', { token: await totpCode(first.secret, now), device_id: first.deviceId }, first.access),
      postHeld('2fa/totp/confirm/', { token: await totpCode(second.secret, now), device_id: second.deviceId }, second.access),
    ];
    await Promise.all(held.map((request) => request.reading));
    const answers = await Promise.all(held.map((request) => request.send()));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
    const winner = answers[0]!.status === 200 ? first : second;
    const confirmed = api.server.db
      .prepare('SELECT id FROM devices WHERE user_id = ? AND confirmed_at IS NOT NULL')
      .all(user('fresh').id) as { id: string }[];
    expect(confirmed.map((row) => row.id)).toEqual([winner.deviceId]);
    // The method is the winner's: its next code signs in.
    api.server.clock.advance(2 * TOTP_STEP);
    const next = await passwordPair('fresh');
    expect((await post('token/verify/', { token: await totpCode(winner.secret, api.server.clock.now()) }, next.access)).status).toBe(200);
  });

  it('answers field errors for missing and blank fields', async () => {
    const setup = await startSetup();
    expectFieldErrors(await post('2fa/totp/confirm/', {}, setup.access), { token: REQUIRED, device_id: REQUIRED });
    expectFieldErrors(await post('2fa/totp/confirm/', { token: '', device_id: 5 }, setup.access), {
      token: BLANK,
      device_id: NOT_A_STRING,
    });
  });

  it('refuses (403) a partial token of a user who already has a method, before reading its body', async () => {
    const token = await nowCode('parent');
    expectDetail(await post('2fa/totp/confirm/', { token, device_id: 'x' }, (await passwordPair('parent')).access), 403);
    expectDetail(await post('2fa/totp/confirm/', {}, (await passwordPair('parent')).access), 403);
    expectDetail(await post('2fa/email/confirm_setup/', {}, (await verifiedPair('child')).access), 403);
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
    expectVerifiedPair(answer, { '2fa_method': 'email', username: 'fresh' });
    // From now on, signing in takes an e-mailed login code.
    const pair = await signIn(api.server, 'fresh', user('fresh').password);
    expect(claimsOf(pair.access).claims.is_2fa_verified).toBe(true);
  });

  it('rejects a wrong code, and a code of another pending device', async () => {
    const setup = await startSetup();
    const wrong = setup.code === '000000' ? '111111' : '000000';
    expectFieldErrors(await post('2fa/email/confirm_setup/', { token: wrong, device_id: setup.deviceId }, setup.access), { token: true });
    // A setup after the first one's reuse window: another device, with its own code.
    api.server.clock.advance(10 * MINUTE);
    const other = await startSetup();
    expect(other.deviceId).not.toBe(setup.deviceId);
    expectFieldErrors(await post('2fa/email/confirm_setup/', { token: other.code, device_id: setup.deviceId }, other.access), {
      token: true,
    });
  });

  it('answers the same device to a setup started again within 10 minutes, with a new code that replaces the last', async () => {
    const setup = await startSetup();
    api.server.clock.advance(10 * MINUTE - 1_000);
    const again = await startSetup();
    expect(again.deviceId).toBe(setup.deviceId);
    expect(api.server.outbox(user('fresh').email)).toHaveLength(2);
    expectFieldErrors(await post('2fa/email/confirm_setup/', { token: setup.code, device_id: setup.deviceId }, again.access), {
      token: true,
    });
    expect((await post('2fa/email/confirm_setup/', { token: again.code, device_id: setup.deviceId }, again.access)).status).toBe(200);
  });

  it('answers the same device without an e-mail once too many were sent, and the last code still confirms', async () => {
    const setup = await startSetup();
    for (let resend = 0; resend < 4; resend++) expect((await post('token/send-email/', undefined, setup.access)).status).toBe(200);
    expectDetail(await post('token/send-email/', undefined, setup.access), 429);
    const last = mailedCode(user('fresh').email);

    const again = emailSetupSchema.parse((await post('2fa/email/setup/', undefined, setup.access)).body);
    expect(again.device_id).toBe(setup.deviceId);
    expect(api.server.outbox(user('fresh').email)).toHaveLength(5);
    expect((await post('2fa/email/confirm_setup/', { token: last, device_id: setup.deviceId }, setup.access)).status).toBe(200);
  });

  it('rejects a setup code older than 10 minutes', async () => {
    const setup = await startSetup();
    api.server.clock.advance(10 * MINUTE);
    const partial = await passwordPair('fresh');
    expectFieldErrors(await post('2fa/email/confirm_setup/', { token: setup.code, device_id: setup.deviceId }, partial.access), {
      token: true,
    });
  });

  it('refuses (403) a second confirmation: the account has its method', async () => {
    const setup = await startSetup();
    const pair = tokenPairSchema.parse(
      (await post('2fa/email/confirm_setup/', { token: setup.code, device_id: setup.deviceId }, setup.access)).body,
    );
    expectDetail(await post('2fa/email/confirm_setup/', { token: setup.code, device_id: setup.deviceId }, pair.access), 403);
  });

  it('refuses (403) a partial token of a user who already has a method', async () => {
    expectDetail(await post('2fa/email/confirm_setup/', { token: '123456', device_id: 'x' }, (await passwordPair('child')).access), 403);
  });
});

describe('too many codes', () => {
  /** A 429 whose Retry-After and DRF text name the same wait, about the 15 minutes of the window. */
  function expectThrottled(answer: Awaited<ReturnType<typeof post>>) {
    const text = expectDetail(answer, 429, /^Request was throttled\. Expected available in \d+ seconds\.$/);
    const seconds = Number(/(\d+) seconds/.exec(text)?.[1]);
    expect(answer.headers.get('Retry-After')).toBe(String(seconds));
    expect(seconds).toBeGreaterThan(14 * 60);
    expect(seconds).toBeLessThanOrEqual(15 * 60);
  }

  it('answers the sixth setup code within 15 minutes with 429, saying how long to wait in Retry-After and in words', async () => {
    const partial = await passwordPair('fresh');
    const totp = totpSetupSchema.parse((await post('2fa/totp/setup/', undefined, partial.access)).body);
    const secret = new URL(totp.qr_url).searchParams.get('secret') ?? '';
    const right = await totpCode(secret, api.server.clock.now());
    const wrong = right === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt++) {
      expectFieldErrors(await post('2fa/totp/confirm/', { token: wrong, device_id: totp.device_id }, partial.access), { token: true });
    }
    expectThrottled(await post('2fa/totp/confirm/', { token: right, device_id: totp.device_id }, partial.access));
    // The same count holds for the e-mail setup's codes.
    const email = emailSetupSchema.parse((await post('2fa/email/setup/', undefined, partial.access)).body);
    expectThrottled(
      await post('2fa/email/confirm_setup/', { token: mailedCode(user('fresh').email), device_id: email.device_id }, partial.access),
    );
  });

  it('answers the sixth sign-in code within 15 minutes with 429 and Retry-After too', async () => {
    const partial = await passwordPair('parent');
    const right = await nowCode('parent');
    const wrong = right === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt++)
      expectFieldErrors(await post('token/verify/', { token: wrong }, partial.access), { token: true });
    expectThrottled(await post('token/verify/', { token: right }, partial.access));
  });
});
