// @vitest-environment node
// GET payment_events/ and connection_fees/: the caller's scope, start included and end
// excluded across offsets, field errors for dates the API does not read.
import { describe, expect, it } from 'vitest';
import { connectionFeeListSchema, paymentEventListSchema } from '../../src/api/schemas.ts';
import { expectFieldErrors, ids, NOV_5, NOV_6, REQUIRED, useContractApi } from '../../tests/utils/api-contract.ts';

const api = useContractApi();
const { get, verifiedPair } = api;

/**
 * Rows enough for several pages (json-list.ts), ids 1000 on: a thousand of them at one instant, so
 * that pages end inside a run of equal instants; every third one of T2's, outside P1's tree; the
 * ids not in the order of the instants, one a minute from 2026-11-10T00:00Z on. Answers the ids a
 * parent of P1 is answered up to `end` (excluded; none: all), in the order the API sorts them
 * (created, then id).
 */
function addManyRows(table: 'payment_events' | 'connection_fees', end?: string): number[] {
  const { P1, C1, T2 } = api.fx.affiliates;
  const rows = Array.from({ length: 3_500 }, (_, i) => {
    const id = 1_000 + ((i * 3) % 3_500);
    const minute = i >= 1_200 && i < 2_200 ? 600 : i;
    const created = new Date(Date.UTC(2026, 10, 10) + minute * 60_000).toISOString();
    const affiliate = i % 3 === 2 ? T2 : table === 'payment_events' ? P1 : C1;
    return { id, created, affiliate };
  });
  const insert =
    table === 'payment_events'
      ? api.server.db.prepare(
          `INSERT INTO payment_events (id, created, amount, affiliate_id, commission_pc, product) VALUES (?, ?, '1.00', ?, '5', 'Cruise')`,
        )
      : api.server.db.prepare(
          `INSERT INTO connection_fees (id, created, amount, affiliate_id, connection_fee_pc, connection_fee_amount) VALUES (?, ?, '1.00', ?, '5', NULL)`,
        );
  for (const row of rows) insert.run(row.id, row.created, row.affiliate);
  return rows
    .filter((row) => row.affiliate !== T2 && (end === undefined || row.created < end))
    .sort((a, b) => a.created.localeCompare(b.created) || a.id - b.id)
    .map((row) => row.id);
}

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
    expect(
      ids((await get('payment_events/', access, { start: '2026-11-04T18:00:00.000-05:00', end: '2026-11-05T18:00:00.000-05:00' })).body),
    ).toEqual([102, 103, 104]);
    expect(
      ids((await get('payment_events/', access, { start: '2026-11-05T00:00:00.000-05:00', end: '2026-11-06T00:00:00.000-05:00' })).body),
    ).toEqual([103, 104, 105]);
  });

  it('reads everything from start on when end is omitted', async () => {
    const { access } = await verifiedPair('admin');
    expect(ids((await get('payment_events/', access, { start: NOV_5 })).body)).toEqual([102, 103, 104, 105]);
    expect(ids((await get('payment_events/', access, { start: '2026-11-06T00:00:00.000Z' })).body)).toEqual([]);
  });

  it('answers a list of many pages whole: each event once, in order, in scope, however many share an instant', async () => {
    // The end leaves the last 500 rows out.
    const end = '2026-11-12T02:00:00.000Z';
    const expected = addManyRows('payment_events', end);
    const answer = await get('payment_events/', (await verifiedPair('parent')).access, { start: '2026-11-10T00:00:00.000Z', end });
    expect(ids(paymentEventListSchema.parse(answer.body))).toEqual(expected);
    // More than a page.
    expect(expected.length).toBeGreaterThan(1_000);
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
      {
        id: 102,
        created: '2026-11-04T23:00:00.000Z',
        amount: '50.00',
        affiliate: { affiliate_id: 'C1' },
        connection_fee_pc: '10',
        connection_fee_amount: null,
      },
      {
        id: 103,
        created: '2026-11-05T08:15:00.000Z',
        amount: '80.00',
        affiliate: { affiliate_id: 'C2' },
        connection_fee_pc: null,
        connection_fee_amount: '4.00',
      },
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

  it('answers a list of many pages whole: each fee once, in order, in scope, however many share an instant', async () => {
    const expected = addManyRows('connection_fees');
    // No end: everything from the start on.
    const answer = await get('connection_fees/', (await verifiedPair('parent')).access, { start: '2026-11-10T00:00:00.000Z' });
    expect(ids(connectionFeeListSchema.parse(answer.body))).toEqual(expected);
  });

  it('answers field errors for a missing or invalid start', async () => {
    const { access } = await verifiedPair('parent');
    expectFieldErrors(await get('connection_fees/', access), { start: REQUIRED });
    expectFieldErrors(await get('connection_fees/', access, { start: 'not-a-date' }), { start: true });
  });
});

describe.each(['payment_events/', 'connection_fees/'])('GET %s range bounds', (path) => {
  const TOO_LONG = ['The range may be at most 731 days.'];
  const TOO_EARLY = ['The range may not start before 2000-01-01.'];

  it('answers a range of 731 days, as the portal asks for one: from the start of a day to the start of the day after the last', async () => {
    const { access } = await verifiedPair('parent');
    const ok = async (start: string, end: string) =>
      expect((await get(path, access, { start, end })).status, `${start} – ${end}`).toBe(200);
    await ok('2025-01-01T00:00:00.000+01:00', '2027-01-02T00:00:00.000+01:00');
    // Daylight saving time ends inside the range: 731 days and an hour, still 731 calendar days.
    await ok('2025-06-01T00:00:00.000+02:00', '2027-06-02T00:00:00.000+01:00');
    // It starts inside: 731 days less an hour.
    await ok('2025-01-01T00:00:00.000+01:00', '2027-01-02T00:00:00.000+02:00');
  });

  it('refuses a longer range with a field error on end', async () => {
    const { access } = await verifiedPair('parent');
    expectFieldErrors(await get(path, access, { start: '2025-01-01T00:00:00.000+01:00', end: '2027-01-03T00:00:00.000+01:00' }), {
      end: TOO_LONG,
    });
    // A second into one more day.
    expectFieldErrors(await get(path, access, { start: '2025-01-01T00:00:00.000+01:00', end: '2027-01-02T00:00:01.000+01:00' }), {
      end: TOO_LONG,
    });
    expectFieldErrors(await get(path, access, { start: '2001-01-01T00:00:00.000Z', end: '9999-12-31T00:00:00.000Z' }), { end: TOO_LONG });
    // Without an end, the range runs until now (the test server's clock: 2026-12-20).
    expectFieldErrors(await get(path, access, { start: '2024-12-01T00:00:00.000Z' }), { end: TOO_LONG });
    expect((await get(path, access, { start: '2025-01-01T00:00:00.000Z' })).status).toBe(200);
  });

  it('refuses a start before 2000-01-01 in its own offset with a field error on start', async () => {
    const { access } = await verifiedPair('parent');
    const end = '2000-06-01T00:00:00.000Z';
    expectFieldErrors(await get(path, access, { start: '1999-12-31T23:59:59.000Z', end }), { start: TOO_EARLY });
    // 2000-01-01T00:30Z, but 1999 where it was written.
    expectFieldErrors(await get(path, access, { start: '1999-12-31T23:30:00.000-01:00', end }), { start: TOO_EARLY });
    // 1999-12-31T19:00Z, but 2000 where it was written.
    expect((await get(path, access, { start: '2000-01-01T00:00:00.000+05:00', end })).status).toBe(200);
    const both = await get(path, access, { start: '0001-01-01T00:00:00.000Z', end: '9999-12-31T00:00:00.000Z' });
    expectFieldErrors(both, { start: TOO_EARLY, end: TOO_LONG });
  });
});
