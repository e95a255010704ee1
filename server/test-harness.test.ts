// @vitest-environment node
// The in-process test server of tests/utils/api-server.ts: its fetch, the demo outbox, signing
// in twice within one TOTP step, and the fixture password hashes made once per run.
import { describe, expect, inject, it } from 'vitest';
import { claimsOf, useContractApi } from '../tests/utils/api-contract.ts';
import { addFixtures, API, createTestServer, signIn } from '../tests/utils/api-server.ts';
import { fixturePassword, fixtureUserNames } from '../tests/utils/fixture-passwords.ts';
import { verifyPassword } from './passwords.ts';

const api = useContractApi();
const { post, passwordPair, verifiedPair } = api;

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
    // Asked for by this machine's name only (the test origin's name is another's).
    expect((await demo.fetch('/__dev/outbox')).status).toBe(404);
    const outbox = (query: string) => demo.fetch(`http://localhost/__dev/outbox${query}`);
    const listed = (await (await outbox(`?to=${encodeURIComponent(demoFixtures.users.child.email)}`)).json()) as unknown[];
    expect(listed).toHaveLength(1);
    // An empty 'to' (a form left blank) lists everything.
    expect((await (await outbox('?to=')).json()) as unknown[]).toHaveLength(1);
  });

  it('signs in twice within one TOTP step', async () => {
    await verifiedPair('parent');
    const again = await verifiedPair('parent');
    expect(claimsOf(again.access).claims.is_2fa_verified).toBe(true);
  });

  it('stores the fixture password hashes the global set-up made for the run, and they verify', async () => {
    const provided = inject('fixturePasswordHashes') ?? {};
    for (const name of fixtureUserNames) {
      const password = fixturePassword(name);
      const stored = api.server.db.prepare('SELECT password_hash FROM users WHERE username = ?').get(name) as { password_hash: string };
      expect(stored.password_hash, name).toBe(provided[password]);
      expect(await verifyPassword(password, stored.password_hash), name).toBe(true);
    }
  });
});
