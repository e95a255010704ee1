// @vitest-environment node
// GET affiliates/ (the caller's affiliate and those below it, or any for a superuser) and the
// invites: GET affiliates/invites/{inviteId}/ and POST affiliates/invites/register/, which use an
// invite once.
import { describe, expect, it } from 'vitest';
import { affiliateListSchema, inviteSchema, loginResponseSchema, registrationResponseSchema } from '../../src/api/schemas.ts';
import {
  BLANK,
  claimsOf,
  expectDetail,
  expectFieldErrors,
  MINUTE,
  NOT_A_STRING,
  NOT_FOUND,
  REQUIRED,
  useContractApi,
} from '../../tests/utils/api-contract.ts';

const api = useContractApi();
const { get, post, verifiedPair } = api;

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
  const valid = (): Record<string, unknown> => ({
    email: 'new.user@fixtures.example',
    password: 'a-long-password',
    invite_id: api.fx.invites.valid,
  });
  const without = (field: string) => Object.fromEntries(Object.entries(valid()).filter(([key]) => key !== field));

  it('registers a user of the invited affiliate with an unverified token without a method', async () => {
    const answer = await register(valid());
    expect(answer.status).toBe(201);
    const { user: created, tokens } = registrationResponseSchema.parse(answer.body);
    loginResponseSchema.parse(answer.body);
    expect(created.username).toBe('new.user@fixtures.example');
    const { raw, claims } = claimsOf(tokens.access);
    expect('2fa_method' in raw).toBe(false);
    expect(claims).toMatchObject({
      is_2fa_verified: false,
      affiliate_id: 'C2',
      is_superuser: false,
      username: 'new.user@fixtures.example',
    });
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
    expectFieldErrors(await register({ ...valid(), email: 'child@fixtures.example' }), {
      email: ['A user with that email already exists.'],
    });
    expectFieldErrors(await register({ ...valid(), email: 'CHILD@Fixtures.Example' }), { email: true });
    expectFieldErrors(await register({ ...valid(), email: 'parent' }), { email: true });
  });

  it('registers one of two users with the same e-mail address at once: the other gets the e-mail error and keeps its invite', async () => {
    const second = 'second-invite';
    api.server.db
      .prepare('INSERT INTO invites (id, affiliate_id, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, NULL)')
      .run(second, api.fx.affiliates.C2, api.server.clock.now(), api.server.clock.now() + 60 * MINUTE);
    const answers = await Promise.all([register(valid()), register({ ...valid(), email: 'NEW.USER@fixtures.example', invite_id: second })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
    expectFieldErrors(
      answers.find((answer) => answer.status === 400)!,
      { email: ['A user with that email already exists.'] },
    );
    const open = await Promise.all([api.fx.invites.valid, second].map(async (id) => (await get(`affiliates/invites/${id}/`)).status));
    expect(open.sort()).toEqual([200, 404]);
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

  it("refuses an e-mail address or password over Django's lengths (254, 128) in DRF's words, and keeps the invite", async () => {
    // Stored, such an address would become the username and a token claim too long for any header.
    const local = 'a'.repeat(64);
    const longEmail = `${local}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(54)}.example`;
    expect(longEmail.length).toBe(255);
    expectFieldErrors(await register({ ...valid(), email: longEmail }), {
      email: ['Ensure this field has no more than 254 characters.'],
    });
    expectFieldErrors(await register({ ...valid(), email: `${'x'.repeat(60_000)}@fixtures.example` }), {
      email: ['Ensure this field has no more than 254 characters.'],
    });
    expectFieldErrors(await register({ ...valid(), password: `${'Qx7#kz'.repeat(21)}abc` }), {
      password: ['Ensure this field has no more than 128 characters.'],
    });
    expect((await get(`affiliates/invites/${api.fx.invites.valid}/`)).status).toBe(200);
  });

  it('answers every field error at once, and keeps the invite after a failed attempt', async () => {
    expectFieldErrors(await register({}), { email: REQUIRED, password: REQUIRED, invite_id: REQUIRED });
    expectFieldErrors(await register({ email: 'x', password: 'y', invite_id: '' }), { email: true, password: true, invite_id: BLANK });
    expect((await get(`affiliates/invites/${api.fx.invites.valid}/`)).status).toBe(200);
    expect((await register(valid())).status).toBe(201);
  });
});
