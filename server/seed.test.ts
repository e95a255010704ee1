// @vitest-environment node
import BigNumber from 'bignumber.js';
import { DateTime } from 'luxon';
import * as z from 'zod/mini';
import { describe, expect, it, vi } from 'vitest';
import { policySchema } from '../src/api/schemas.ts';
import { getMeta, openDatabase, type Db } from './db.ts';
import { verifyPassword } from './passwords.ts';
import type { ReportRow } from './report-file.ts';
import { createInvite, DEMO_ACCOUNTS, DEMO_INVITE_ID, DEMO_PASSWORD, ensureDemoData } from './seed.ts';

// Most tests seed 14 months, some two or three times: seconds of wall time on a loaded machine.
// What they check is the rows (the speed test holds CPU time to its own bound).
vi.setConfig({ testTimeout: 30_000 });

const ZONE = 'America/New_York'; // not the test machine's zone, and with DST changes in the range
const TODAY = DateTime.fromObject({ year: 2026, month: 11, day: 22, hour: 14, minute: 30 }, { zone: ZONE });
const TODAY_ISO = TODAY.toJSDate().toISOString();
const DAY_MS = 24 * 60 * 60 * 1000;

interface EventRow {
  id: number;
  created: string;
  amount: string | null;
  affiliate_id: string;
  commission_pc: string | null;
  product: string;
  policies: string;
}
interface FeeRow {
  id: number;
  created: string;
  amount: string | null;
  affiliate_id: string;
  connection_fee_pc: string | null;
  connection_fee_amount: string | null;
}
function seeded(today: DateTime = TODAY, log?: (line: string) => void): Db {
  const db = openDatabase(':memory:');
  ensureDemoData(db, { today, log });
  return db;
}

const all = <T>(db: Db, sql: string): T[] => db.prepare(sql).all() as T[];
const events = (db: Db) => all<EventRow>(db, 'SELECT * FROM payment_events ORDER BY id');
const fees = (db: Db) => all<FeeRow>(db, 'SELECT * FROM connection_fees ORDER BY id');
const reports = (db: Db) => all<ReportRow>(db, 'SELECT * FROM reports ORDER BY id');

function rowCounts(db: Db): Record<string, number> {
  const tables = ['affiliates', 'users', 'invites', 'payment_events', 'connection_fees', 'reports', 'meta'];
  return Object.fromEntries(tables.map((table) => [table, (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n]));
}

const localDate = (createdIso: string, zone = ZONE) => DateTime.fromISO(createdIso, { zone });

describe('static demo rows', () => {
  const db = seeded();

  it('creates the affiliate tree, with AFF-400 as a top-level affiliate without sales', () => {
    expect(all(db, 'SELECT affiliate_id, name, parent_id FROM affiliates ORDER BY affiliate_id')).toEqual([
      { affiliate_id: 'AFF-100', name: 'Globetrotter Travel', parent_id: null },
      { affiliate_id: 'AFF-110', name: 'Globetrotter Berlin', parent_id: 'AFF-100' },
      { affiliate_id: 'AFF-120', name: 'Globetrotter Lisbon', parent_id: 'AFF-100' },
      { affiliate_id: 'AFF-200', name: 'Sunny Trips', parent_id: null },
      { affiliate_id: 'AFF-300', name: 'Nomad Cover Partners', parent_id: null },
      { affiliate_id: 'AFF-310', name: 'Nomad Students', parent_id: 'AFF-300' },
      { affiliate_id: 'AFF-400', name: 'Quiet Harbour Agency', parent_id: null },
    ]);
    expect(all(db, "SELECT id FROM payment_events WHERE affiliate_id = 'AFF-400'")).toEqual([]);
  });

  it('creates the demo accounts with their affiliate, role and two-factor method', () => {
    const users = all<Record<string, unknown>>(
      db,
      'SELECT username, email, affiliate_id, is_superuser, twofa_method, totp_secret FROM users ORDER BY id',
    );
    expect(users).toEqual([
      {
        username: 'globetrotter',
        email: 'globetrotter@demo.example',
        affiliate_id: 'AFF-100',
        is_superuser: 0,
        twofa_method: 'totp',
        totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      },
      {
        username: 'berlin',
        email: 'berlin@demo.example',
        affiliate_id: 'AFF-110',
        is_superuser: 0,
        twofa_method: 'email',
        totp_secret: null,
      },
      { username: 'sunny', email: 'sunny@demo.example', affiliate_id: 'AFF-200', is_superuser: 0, twofa_method: null, totp_secret: null },
      { username: 'nomad', email: 'nomad@demo.example', affiliate_id: 'AFF-300', is_superuser: 0, twofa_method: null, totp_secret: null },
      {
        username: 'admin',
        email: 'admin@demo.example',
        affiliate_id: null,
        is_superuser: 1,
        twofa_method: 'totp',
        totp_secret: DEMO_ACCOUNTS[4]?.totpSecret,
      },
    ]);
  });

  it('gives every account the demo password and TOTP accounts a 20-byte Base32 secret', async () => {
    for (const { password_hash } of all<{ password_hash: string }>(db, 'SELECT password_hash FROM users')) {
      expect(await verifyPassword(DEMO_PASSWORD, password_hash)).toBe(true);
      expect(await verifyPassword('wrong', password_hash)).toBe(false);
    }
    const secrets = DEMO_ACCOUNTS.filter((account) => account.method === 'totp').map((account) => account.totpSecret);
    expect(secrets).toHaveLength(2);
    expect(new Set(secrets).size).toBe(2);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('creates the demo invite for AFF-120, valid for 30 days from seeding', () => {
    expect(DEMO_INVITE_ID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(db.prepare('SELECT * FROM invites').all()).toEqual([
      {
        id: DEMO_INVITE_ID,
        affiliate_id: 'AFF-120',
        created_at: TODAY.toMillis(),
        expires_at: TODAY.toMillis() + 30 * DAY_MS,
        used_at: null,
      },
    ]);
  });

  it('re-creates the demo invite only when it is missing', () => {
    const later = TODAY.plus({ days: 40 });
    ensureDemoData(db, { today: later });
    expect(db.prepare('SELECT expires_at FROM invites WHERE id = ?').get(DEMO_INVITE_ID)).toEqual({
      expires_at: TODAY.toMillis() + 30 * DAY_MS,
    });
    db.prepare('DELETE FROM invites').run();
    ensureDemoData(db, { today: later });
    expect(db.prepare('SELECT expires_at FROM invites WHERE id = ?').get(DEMO_INVITE_ID)).toEqual({
      expires_at: later.toMillis() + 30 * DAY_MS,
    });
  });
});

describe('payment events and connection fees', () => {
  const db = seeded();
  const rows = events(db);
  const sellers = ['AFF-100', 'AFF-110', 'AFF-120', 'AFF-200', 'AFF-300', 'AFF-310'];

  it('covers every local day from the first of the month 14 months back up to now, for six sellers', () => {
    const days = new Set(rows.map((row) => localDate(row.created).toISODate()));
    expect([...days].sort()[0]).toBe('2025-09-01');
    expect([...days].sort().at(-1)).toBe('2026-11-22');
    expect(days.size).toBeGreaterThan(440); // 448 days in the range; a day without any sale is rare
    expect(new Set(rows.map((row) => row.affiliate_id))).toEqual(new Set(sellers));
    expect(rows.every((row) => row.created < TODAY_ISO)).toBe(true);
    expect(rows.every((row) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(row.created))).toBe(true);
  });

  it('derives unique ids from the local day, the seller and a per-day number below 10', () => {
    for (const row of rows) {
      const day = localDate(row.created);
      expect(Math.floor(row.id / 100)).toBe(Date.UTC(day.year, day.month - 1, day.day) / DAY_MS);
      expect(Math.floor((row.id % 100) / 10)).toBe(sellers.indexOf(row.affiliate_id));
    }
    // A collision would have been dropped by INSERT OR IGNORE: the ids encode (day, seller, n) instead.
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
  });

  it('stores amounts between 20 and 400 as decimal strings, rarely with a third decimal', () => {
    expect(rows.every((row) => row.amount !== null && /^\d+\.\d{2,3}$/.test(row.amount))).toBe(true);
    expect(rows.every((row) => Number(row.amount) >= 20 && Number(row.amount) <= 400)).toBe(true);
    const threeDecimals = rows.filter((row) => /\.\d{3}$/.test(row.amount ?? '')).length;
    expect(threeDecimals).toBeGreaterThan(0);
    expect(threeDecimals / rows.length).toBeLessThan(0.05);
  });

  it('makes all AFF-300 sales and some AFF-100/AFF-200 sales platform sales (commission 0 or NULL)', () => {
    const isPlatform = (row: EventRow) => row.commission_pc === null || Number(row.commission_pc) === 0;
    const share = (id: string) =>
      rows.filter((row) => row.affiliate_id === id && isPlatform(row)).length / rows.filter((row) => row.affiliate_id === id).length;
    expect(share('AFF-300')).toBe(1);
    for (const id of ['AFF-100', 'AFF-200']) {
      expect(share(id)).toBeGreaterThan(0.08);
      expect(share(id)).toBeLessThan(0.25);
    }
    for (const id of ['AFF-110', 'AFF-120', 'AFF-310']) expect(share(id)).toBe(0);
    expect(rows.some((row) => row.commission_pc === null)).toBe(true);
    expect(new Set(rows.map((row) => row.product))).toEqual(new Set(['Single Trip', 'Annual Multi-Trip', 'Backpacker']));
  });

  it('stores policies the API schema accepts, including the edge cases the dashboard filters', () => {
    const policies = rows.map((row) => z.array(policySchema).parse(JSON.parse(row.policies)));
    expect(policies.every((list) => list.length <= 1)).toBe(true);
    expect(policies.every((list) => list.every((policy) => /^TP-\d{6}$/.test(policy.policy_number ?? '')))).toBe(true);
    const noPolicy = policies.filter((list) => list.length === 0).length / rows.length;
    const noTraveler = policies.filter((list) => list[0]?.travelers?.length === 0).length / rows.length;
    expect(noPolicy).toBeGreaterThan(0.01);
    expect(noPolicy).toBeLessThan(0.06);
    expect(noTraveler).toBeGreaterThan(0.02);
    expect(noTraveler).toBeLessThan(0.09);
  });

  it('has days where one affiliate sold the same policy twice (a traveller added later that day)', () => {
    const byDayAndPolicy = new Map<string, EventRow[]>();
    for (const row of rows) {
      const number = (JSON.parse(row.policies) as { policy_number: string }[])[0]?.policy_number;
      if (!number) continue;
      const key = `${row.affiliate_id}|${localDate(row.created).toISODate()}|${number}`;
      byDayAndPolicy.set(key, [...(byDayAndPolicy.get(key) ?? []), row]);
    }
    const pairs = [...byDayAndPolicy.values()].filter((group) => group.length > 1);
    expect(pairs.length).toBeGreaterThan(20);
    for (const [first, second] of pairs as [EventRow, EventRow][]) {
      expect(second.created >= first.created).toBe(true);
      const travelers = (row: EventRow) => (JSON.parse(row.policies) as [{ travelers: unknown[] }])[0].travelers;
      expect(travelers(second)).toEqual([...travelers(first), expect.anything()]);
    }
  });

  it('records a connection fee for every sale of a child affiliate, with the sale id, time, amount and affiliate', () => {
    const childSales = rows.filter((row) => ['AFF-110', 'AFF-120', 'AFF-310'].includes(row.affiliate_id));
    const feeRows = fees(db);
    expect(feeRows.map((fee) => ({ id: fee.id, created: fee.created, amount: fee.amount, affiliate_id: fee.affiliate_id }))).toEqual(
      childSales.map((sale) => ({ id: sale.id, created: sale.created, amount: sale.amount, affiliate_id: sale.affiliate_id })),
    );
    const kind = (fee: FeeRow) => `${fee.connection_fee_pc ?? '-'} / ${fee.connection_fee_amount ?? '-'}`;
    const kinds = new Map<string, number>();
    for (const fee of feeRows) kinds.set(kind(fee), (kinds.get(kind(fee)) ?? 0) + 1);
    expect([...kinds.keys()].sort()).toEqual(['- / -', '- / 2.50', '5.00 / -']);
    expect(kinds.get('5.00 / -')! / feeRows.length).toBeGreaterThan(0.7);
    expect(kinds.get('- / -')! / feeRows.length).toBeLessThan(0.1);
  });

  it('seeds 14 months in well under a second', () => {
    // The process's CPU time, not the wall clock: on a shared machine other processes' turns count there.
    const started = process.cpuUsage();
    seeded();
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(1000);
  });
});

describe('idempotent top-up', () => {
  it('changes nothing when run again the same day', () => {
    const db = seeded();
    const before = { counts: rowCounts(db), events: events(db), reports: reports(db) };
    const lines: string[] = [];
    ensureDemoData(db, { today: TODAY, log: (line) => lines.push(line) });
    expect({ counts: rowCounts(db), events: events(db), reports: reports(db) }).toEqual(before);
    expect(lines).toEqual(['Demo data already seeded through 2026-11-22']);
  });

  it('seeding day D then D+3 gives the same rows as seeding D+3 directly (across a report date)', () => {
    const dayD = DateTime.fromObject({ year: 2026, month: 11, day: 13, hour: 18 }, { zone: ZONE });
    const dayD3 = DateTime.fromObject({ year: 2026, month: 11, day: 16, hour: 9 }, { zone: ZONE });
    const toppedUp = seeded(dayD);
    const reportsBefore = reports(toppedUp).length;
    ensureDemoData(toppedUp, { today: dayD3 });
    const direct = seeded(dayD3);
    expect(events(toppedUp)).toEqual(events(direct));
    expect(fees(toppedUp)).toEqual(fees(direct));
    expect(reports(toppedUp)).toEqual(reports(direct));
    expect(reports(toppedUp).length).toBeGreaterThan(reportsBefore); // October's reports became available on the 15th
    expect(getMeta(toppedUp, 'seeded_through')).toBe('2026-11-16');
  });

  it('adds only the missing rows on a later day and keeps the existing ones', () => {
    const db = seeded();
    const before = events(db);
    const lines: string[] = [];
    ensureDemoData(db, { today: TODAY.plus({ days: 1 }), log: (line) => lines.push(line) });
    const after = events(db);
    const oldIds = new Set(before.map((row) => row.id));
    expect(after.filter((row) => oldIds.has(row.id))).toEqual(before);
    const added = after.filter((row) => !oldIds.has(row.id));
    // The rest of 2026-11-22 (after the first run's time of day) and 2026-11-23 up to the same time.
    expect(new Set(added.map((row) => localDate(row.created).toISODate()))).toEqual(new Set(['2026-11-22', '2026-11-23']));
    expect(added.every((row) => row.created >= TODAY_ISO)).toBe(true);
    expect(lines.at(-1)).toBe('Seeded demo data through 2026-11-23');
  });
});

describe('reports', () => {
  const db = seeded();
  const rows = reports(db);

  it('exist for the 14 months available by today for AFF-100, AFF-200 and AFF-300 only', () => {
    expect(new Set(rows.map((row) => row.affiliate_id))).toEqual(new Set(['AFF-100', 'AFF-200', 'AFF-300']));
    for (const id of ['AFF-100', 'AFF-200', 'AFF-300']) {
      const starts = [...new Set(rows.filter((row) => row.affiliate_id === id).map((row) => row.start_date))].sort();
      expect(starts).toHaveLength(14);
      expect(starts[0]).toBe('2025-09-01');
      expect(starts.at(-1)).toBe('2026-10-01');
    }
    expect(rows.filter((row) => row.report_date > '2026-11-22')).toEqual([]);
  });

  it('are available from the 15th of the following month', () => {
    const early = reports(seeded(DateTime.fromObject({ year: 2026, month: 11, day: 14, hour: 23 }, { zone: ZONE })));
    expect(Math.max(...early.map((row) => Date.parse(row.start_date)))).toBe(Date.parse('2026-09-01'));
    for (const row of rows) {
      const start = DateTime.fromISO(row.start_date);
      expect(row.end_date).toBe(start.endOf('month').toISODate());
      expect(row.report_date).toBe(start.plus({ months: 1 }).set({ day: 15 }).toISODate());
    }
  });

  it('sometimes have a superseded issue: a lower id for the same affiliate and start date', () => {
    const keys = rows.map((row) => `${row.affiliate_id}|${row.start_date}`);
    const twice = [...new Set(keys)].filter((key) => keys.filter((other) => other === key).length === 2);
    expect(twice.length).toBeGreaterThanOrEqual(3);
    expect(new Set(keys).size + twice.length).toBe(rows.length); // never more than two issues
  });

  it("carry the dashboard's figures for the affiliate and the month, in every issue", () => {
    const parents = new Map(
      all<{ affiliate_id: string; parent_id: string | null }>(db, 'SELECT * FROM affiliates').map((a) => [a.affiliate_id, a.parent_id]),
    );
    const monthOf = (created: string) => localDate(created).startOf('month').toISODate();
    const at6 = (value: BigNumber.Value) => new BigNumber(value).decimalPlaces(6, BigNumber.ROUND_HALF_EVEN);
    const commissionOf = (row: EventRow) => at6(new BigNumber(row.amount ?? 0).times(row.commission_pc ?? 0).div(100));
    const eventRows = events(db).map((row) => ({ ...row, month: monthOf(row.created) }));
    const feeRows = fees(db).map((fee) => ({ ...fee, month: monthOf(fee.created) }));
    const sum = (values: BigNumber.Value[]) =>
      values.reduce<BigNumber>((total, value) => total.plus(value), new BigNumber(0)).toFixed(2, BigNumber.ROUND_HALF_EVEN);
    for (const report of rows) {
      // Direct sales: own sales with a referral fee, and the connected affiliates' sales it earned a fee on, each id once.
      const direct = eventRows.filter(
        (row) => row.affiliate_id === report.affiliate_id && row.month === report.start_date && !commissionOf(row).isZero(),
      );
      const connected = feeRows.filter((fee) => parents.get(fee.affiliate_id) === report.affiliate_id && fee.month === report.start_date);
      const directIds = new Set(direct.map((row) => row.id));
      const connectedOnly = connected.filter((fee) => !directIds.has(fee.id));
      expect(report).toMatchObject({
        sales: direct.length + new Set(connectedOnly.map((fee) => fee.id)).size,
        premium_collected: sum([...direct, ...connectedOnly].map((row) => at6(row.amount ?? 0))),
        commission: sum(direct.map(commissionOf)),
        connection_fees: sum(
          connected.map((fee) =>
            fee.connection_fee_amount !== null
              ? at6(fee.connection_fee_amount)
              : at6(new BigNumber(fee.amount ?? 0).times(fee.connection_fee_pc ?? 0).div(100)),
          ),
        ),
      });
      expect(direct.length + connected.length).toBeGreaterThan(20);
    }
    expect(rows.filter((r) => r.affiliate_id === 'AFF-300').every((r) => r.commission === '0.00')).toBe(true);
    expect(rows.filter((r) => r.affiliate_id === 'AFF-200').every((r) => r.connection_fees === '0.00')).toBe(true);
  });
});

describe('createInvite', () => {
  const db = seeded();
  const now = Date.UTC(2026, 10, 22, 12);

  it('creates an invite valid for 14 days by default', () => {
    const id = createInvite(db, 'AFF-200', { now });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(db.prepare('SELECT * FROM invites WHERE id = ?').get(id)).toEqual({
      id,
      affiliate_id: 'AFF-200',
      created_at: now,
      expires_at: now + 14 * DAY_MS,
      used_at: null,
    });
  });

  it('honours a custom validity and gives each invite a new id', () => {
    const first = createInvite(db, 'AFF-400', { now, days: 2 });
    const second = createInvite(db, 'AFF-400', { now, days: 2 });
    expect(first).not.toBe(second);
    expect(db.prepare('SELECT expires_at FROM invites WHERE id = ?').get(first)).toEqual({ expires_at: now + 2 * DAY_MS });
  });

  it('refuses an unknown affiliate', () => {
    expect(() => createInvite(db, 'AFF-999', { now })).toThrow('Unknown affiliate: AFF-999');
  });
});
