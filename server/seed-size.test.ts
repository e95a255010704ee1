// @vitest-environment node
// The seed size for benchmarks (ensureDemoData's seedEvents): globetrotter's dashboard, asked for
// its default range (the last 30 days) through the API, gets the requested numbers of payment
// events and connection fees; without the option the demo data is what it always was.
import { DateTime } from 'luxon';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { connectionFeeListSchema, paymentEventListSchema, tokenPairSchema } from '../src/api/schemas.ts';
import { createApp } from './app.ts';
import { openDatabase, type Db } from './db.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, ensureDemoData, SEED_SIZE_ACCOUNT } from './seed.ts';

const ZONE = 'America/New_York';
const TODAY = DateTime.fromObject({ year: 2026, month: 11, day: 22, hour: 14, minute: 30 }, { zone: ZONE });
const SECRET = new TextEncoder().encode('seed-size-test-secret-0123456789abcdef');

function seeded(seedEvents?: number): Db {
  const db = openDatabase(':memory:');
  ensureDemoData(db, { today: TODAY, log: () => {}, seedEvents });
  return db;
}

/** The dashboard's default range in the browser's zone: [today - 30 days, tomorrow), as the SPA asks. */
function last30Days() {
  const today = TODAY.startOf('day');
  return new URLSearchParams({
    start: today.minus({ days: 30 }).startOf('day').toISO()!,
    end: today.plus({ days: 1 }).startOf('day').toISO()!,
  });
}

/** globetrotter's payment events and connection fees of the last 30 days, as the dashboard gets them. */
async function dashboardLists(db: Db) {
  const { app } = createApp({ db, secret: SECRET, now: () => TODAY.toMillis(), print: () => {} });
  const post = async (path: string, body: unknown, access?: string) => {
    const response = await app.request(`/api/v2/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(access ? { Authorization: `Bearer ${access}` } : {}) },
      body: JSON.stringify(body),
    });
    expect(response.status, path).toBe(200);
    return tokenPairSchema.parse(await response.json());
  };
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.username === SEED_SIZE_ACCOUNT)!;
  const partial = await post('token/', { username: account.username, password: DEMO_PASSWORD });
  const code = await generate({ secret: account.totpSecret!, epoch: Math.floor(TODAY.toMillis() / 1000) });
  const { access } = await post('token/verify/', { token: code }, partial.access);
  const get = async (path: string) => {
    const response = await app.request(`/api/v2/${path}?${last30Days().toString()}`, { headers: { Authorization: `Bearer ${access}` } });
    expect(response.status, path).toBe(200);
    return await response.json();
  };
  return {
    events: paymentEventListSchema.parse(await get('payment_events/')),
    fees: connectionFeeListSchema.parse(await get('connection_fees/')),
  };
}

const tableRows = (db: Db, table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();

describe('the seed size', () => {
  it.each([1_000, 10_000])("gives globetrotter's last 30 days %i payment events and a fifth as many connection fees", async (size) => {
    const { events, fees } = await dashboardLists(seeded(size));
    expect(events).toHaveLength(size);
    expect(fees).toHaveLength(size / 5);
    // Platform sales (commission 0) among them, so that the Sales Chart can be chosen.
    expect(events.some((event) => Number(event.order.affiliate_commission_pc ?? 0) === 0)).toBe(true);
    // Every fee is on a sale that is also a payment event, as in the demo data.
    const eventIds = new Set(events.map((event) => event.id));
    expect(fees.every((item) => eventIds.has(item.id))).toBe(true);
  });

  it('adds nothing when run again: the rows already there count', () => {
    const db = seeded(2_000);
    const before = { events: tableRows(db, 'payment_events'), fees: tableRows(db, 'connection_fees') };
    ensureDemoData(db, { today: TODAY, log: () => {}, seedEvents: 2_000 });
    expect({ events: tableRows(db, 'payment_events'), fees: tableRows(db, 'connection_fees') }).toEqual(before);
  });

  it('adds to the demo data without changing it (the seed without the option is seed.test.ts)', () => {
    const plain = seeded();
    const sized = seeded(1_000);
    for (const table of ['affiliates', 'invites']) expect(tableRows(sized, table), table).toEqual(tableRows(plain, table));
    // Each seeding hashes the password with its own salt.
    const users = (db: Db) =>
      db.prepare('SELECT username, email, affiliate_id, is_superuser, twofa_method, totp_secret FROM users ORDER BY id').all();
    expect(users(sized)).toEqual(users(plain));
    const seedSizeRows = (db: Db) => db.prepare('SELECT count(*) AS n FROM payment_events WHERE id >= 1000000000').get();
    expect(seedSizeRows(plain)).toEqual({ n: 0 });
    const demoIds = (db: Db, table: string) => db.prepare(`SELECT * FROM ${table} WHERE id < 1000000000 ORDER BY id`).all();
    expect(demoIds(sized, 'payment_events')).toEqual(tableRows(plain, 'payment_events'));
    expect(demoIds(sized, 'connection_fees')).toEqual(tableRows(plain, 'connection_fees'));
  });

  it('refuses a size that is not a whole number', () => {
    expect(() => seeded(-1)).toThrow(RangeError);
    expect(() => seeded(2.5)).toThrow(RangeError);
  });
});
