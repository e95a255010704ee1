// @vitest-environment node
// E-mailed codes under a send flood: each new code replaces the earlier ones, sends are limited
// per user, and codes expire after 10 minutes.
import { describe, expect, it } from 'vitest';
import { tokenPairSchema } from '../src/api/schemas.ts';
import { detailOf, expectThrottled, postApi } from '../tests/utils/api-calls.ts';
import { useFixtureServer } from '../tests/utils/api-server.ts';

const MINUTE = 60_000;

const api = useFixtureServer();

async function partialAccess(name: 'child' | 'fresh'): Promise<string> {
  const answer = await postApi(api.server, 'token/', { username: api.fx.users[name].username, password: api.fx.users[name].password });
  expect(answer.status).toBe(200);
  return tokenPairSchema.parse(answer.body).access;
}

/** Codes of the user that would be accepted now: unused and unexpired. */
function liveCodes(userId: number): number {
  const row = api.server.db
    .prepare<[number, number], { count: number }>(
      'SELECT COUNT(*) AS count FROM email_codes WHERE user_id = ? AND used_at IS NULL AND expires_at > ?',
    )
    .get(userId, api.server.clock.now());
  return row?.count ?? 0;
}

const codes = (email: string) => api.server.outbox(email).map((message) => message.code ?? '');

describe('POST token/send-email/ under a flood', () => {
  it('leaves one valid code however many sends were asked for', async () => {
    const access = await partialAccess('child');
    const statuses: number[] = [];
    for (let send = 0; send < 50; send++) statuses.push((await postApi(api.server, 'token/send-email/', undefined, { access })).status);
    const valid = liveCodes(api.fx.users.child.id);
    console.log(
      `codes valid at once after a send flood (50 sends asked): ${valid}; sends answered 200: ${statuses.filter((s) => s === 200).length}`,
    );
    expect(valid).toBe(1);
  });

  it('accepts only the newest code: each send invalidates the earlier ones', async () => {
    const access = await partialAccess('child');
    await postApi(api.server, 'token/send-email/', undefined, { access });
    await postApi(api.server, 'token/send-email/', undefined, { access });
    const [newest, older] = codes(api.fx.users.child.email);
    if (!newest || !older) throw new Error('two codes expected');
    if (older !== newest) {
      const refused = await postApi(api.server, 'token/verify/', { token: older }, { access });
      expect(refused.status).toBe(400);
    }
    expect((await postApi(api.server, 'token/verify/', { token: newest }, { access })).status).toBe(200);
  });

  it('sends at most 5 codes per user in 15 minutes, then answers 429 with the wait', async () => {
    const access = await partialAccess('child');
    for (let send = 0; send < 5; send++) expect((await postApi(api.server, 'token/send-email/', undefined, { access })).status).toBe(200);
    const sixth = await postApi(api.server, 'token/send-email/', undefined, { access });
    expectThrottled(sixth);
    expect(detailOf(sixth)).toBe('Request was throttled. Expected available in 900 seconds.');
    expect(api.server.outbox(api.fx.users.child.email)).toHaveLength(5);
    // A new password sign-in does not lift the limit: it is per user.
    expect((await postApi(api.server, 'token/send-email/', undefined, { access: await partialAccess('child') })).status).toBe(429);
    api.server.clock.advance(15 * MINUTE);
    expect((await postApi(api.server, 'token/send-email/', undefined, { access: await partialAccess('child') })).status).toBe(200);
  });

  it('counts the setup codes of e-mail setup too', async () => {
    const access = await partialAccess('fresh');
    expect((await postApi(api.server, '2fa/email/setup/', undefined, { access })).status).toBe(200);
    for (let send = 0; send < 4; send++) expect((await postApi(api.server, 'token/send-email/', undefined, { access })).status).toBe(200);
    expect((await postApi(api.server, 'token/send-email/', undefined, { access })).status).toBe(429);
    // Setting up again within 10 minutes answers the same device and sends nothing more.
    expect((await postApi(api.server, '2fa/email/setup/', undefined, { access })).status).toBe(200);
    expect(codes(api.fx.users.fresh.email)).toHaveLength(5);
    expect(liveCodes(api.fx.users.fresh.id)).toBe(1);
    // Later, a setup that needs a new device and its code waits for the limit too.
    api.server.clock.advance(10 * MINUTE);
    const later = await partialAccess('fresh');
    expect((await postApi(api.server, '2fa/email/setup/', undefined, { access: later })).status).toBe(429);
    expect(codes(api.fx.users.fresh.email)).toHaveLength(5);
  });

  it('lets a user who signed in with a code ask for codes again (the limit restarts)', async () => {
    for (let signIn = 0; signIn < 3; signIn++) {
      const access = await partialAccess('child');
      await postApi(api.server, 'token/send-email/', undefined, { access });
      await postApi(api.server, 'token/send-email/', undefined, { access });
      const [code] = codes(api.fx.users.child.email);
      expect((await postApi(api.server, 'token/verify/', { token: code }, { access })).status).toBe(200);
    }
  });

  it('keeps a code valid for 10 minutes and no longer', async () => {
    const access = await partialAccess('child');
    await postApi(api.server, 'token/send-email/', undefined, { access });
    api.server.clock.advance(10 * MINUTE - 1);
    expect(liveCodes(api.fx.users.child.id)).toBe(1);
    api.server.clock.advance(1);
    expect(liveCodes(api.fx.users.child.id)).toBe(0);
    const [code] = codes(api.fx.users.child.email);
    expect((await postApi(api.server, 'token/verify/', { token: code }, { access: await partialAccess('child') })).status).toBe(400);
  });
});
