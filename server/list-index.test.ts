// @vitest-environment node
// A list asked for with a scope (an affiliate and its children, or a superuser viewing as one)
// reads its rows from the index that starts with the affiliate, in order: the rows of other
// affiliates are never read, however long the range. Read from SQLite's own query plan of every
// statement the request runs.
import { beforeEach, describe, expect, it } from 'vitest';
import { getApi } from '../tests/utils/api-calls.ts';
import { addFixtures, createTestServer, signIn, type Fixtures, type TestServer } from '../tests/utils/api-server.ts';
import { openDatabase } from './db.ts';

let server: TestServer;
let fx: Fixtures;
/** Every statement the database ran since the last `take()`, parameters written in. */
let statements: string[] = [];

beforeEach(() => {
  const db = openDatabase(':memory:', { verbose: (sql) => statements.push(sql) });
  server = createTestServer({ db });
  fx = addFixtures(server.db, { now: server.clock.now() });
});

/** The query plan (EXPLAIN QUERY PLAN's lines) of each statement that read `table` while `request` ran. */
async function plansOf(table: string, request: () => Promise<unknown>): Promise<string[][]> {
  statements = [];
  await request();
  const reads = statements.filter((sql) => /^\s*SELECT/i.test(sql) && new RegExp(`\\bFROM ${table}\\b`).test(sql));
  return reads.map((sql) =>
    server.db
      .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
      .all()
      .map((row) => row.detail),
  );
}

const range = { start: '2025-01-01T00:00:00.000+01:00', end: '2026-12-21T00:00:00.000+01:00' };
const query = (extra: Record<string, string> = {}) => new URLSearchParams({ ...range, ...extra }).toString();

describe.each([
  { table: 'payment_events', path: 'payment_events/' },
  { table: 'connection_fees', path: 'connection_fees/' },
])('GET $path with a scope', ({ table, path }) => {
  const expectAffiliateIndex = (plans: string[][]) => {
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      expect(plan.join('\n')).toContain(`SEARCH ${table} USING INDEX ${table}_affiliate (affiliate_id=? AND created>?)`);
      // Neither every row read nor the rows sorted again.
      expect(plan.join('\n')).not.toMatch(/SCAN|TEMP B-TREE/);
    }
  };

  it('reads the scope’s rows from the index that starts with the affiliate', async () => {
    const { access } = await signIn(server, fx.users.parent.username, fx.users.parent.password);
    expectAffiliateIndex(await plansOf(table, () => getApi(server, `${path}?${query()}`, { access })));
  });

  it('does so for a superuser viewing the portal as an affiliate', async () => {
    const { access } = await signIn(server, fx.users.admin.username, fx.users.admin.password);
    expectAffiliateIndex(await plansOf(table, () => getApi(server, `${path}?${query({ impersonate_affiliate: 'P1' })}`, { access })));
  });
});
