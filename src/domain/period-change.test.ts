import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Affiliate } from '../api/affiliates.ts';
import type { ConnectionFee, PaymentEvent } from '../api/schemas.ts';
import { deriveDashboard } from './dashboard.ts';
import type { DashboardInput, DashboardStats } from './dashboard-model.ts';
import { deriveDashboardReference } from './dashboard-reference.ts';
import { dateRange, daySlots, parseDay, previousPeriod, type DateRange } from './dates.ts';
import { money } from './money.ts';
import { CHANGE_STATS, periodChange, statChanges, type Change, type StatChanges } from './period-change.ts';

const zone = 'Europe/Berlin';
const day = (text: string, in_ = zone) => parseDay(text, in_)!;
const iso = (range: DateRange) => [range.start.toISO(), range.end.toISO()];
/** A money figure as the stat boxes carry it, from its display text. */
const shown = (display: string) => money(Math.round(Number(display) * 1e6));

describe('previousPeriod: as many days as the range, ending where it starts', () => {
  it('Last 30 days (31 days with today) against the 31 days before', () => {
    const range = dateRange('last30', { now: day('2026-11-23').set({ hour: 15 }), zone });
    expect(iso(previousPeriod(range))).toEqual(iso({ start: day('2026-09-23'), end: day('2026-10-24') }));
    expect(daySlots(previousPeriod(range))).toHaveLength(31);
  });

  it('a month against the same number of days before its first', () => {
    const november = dateRange('current', { now: day('2026-11-23'), zone });
    expect(iso(previousPeriod(november))).toEqual(iso({ start: day('2026-10-02'), end: day('2026-11-01') }));
    // March (31 days, one of them 23 hours long) against January 29 to February 28.
    const march = dateRange('current', { now: day('2026-03-10'), zone });
    expect(iso(previousPeriod(march))).toEqual(iso({ start: day('2026-01-29'), end: day('2026-03-01') }));
  });

  it('counts calendar days across a change to or from summer time (23- and 25-hour days)', () => {
    // Berlin changes on 2026-03-29 and 2026-10-25.
    const overSpring = { start: day('2026-03-29'), end: day('2026-04-05') };
    expect(iso(previousPeriod(overSpring))).toEqual(iso({ start: day('2026-03-22'), end: day('2026-03-29') }));
    const afterAutumn = { start: day('2026-10-26'), end: day('2026-10-28') };
    expect(iso(previousPeriod(afterAutumn))).toEqual(iso({ start: day('2026-10-24'), end: day('2026-10-26') }));
  });
});

describe('periodChange: percentage of the previous figure, one decimal', () => {
  it('up, down and no change, as magnitudes with a direction', () => {
    expect(periodChange(shown('112.40'), shown('100.00'))).toEqual({ direction: 'up', percent: '12.4' });
    expect(periodChange(50, 100)).toEqual({ direction: 'down', percent: '50.0' });
    expect(periodChange(0, 7)).toEqual({ direction: 'down', percent: '100.0' });
    expect(periodChange(7, 7)).toEqual({ direction: 'none', percent: '0.0' });
    expect(periodChange(50, 2)).toEqual({ direction: 'up', percent: '2,400.0' });
  });

  it('nothing when the previous figure is zero', () => {
    expect(periodChange(12, 0)).toBeNull();
    expect(periodChange(shown('5.00'), shown('0.00'))).toBeNull();
    // 0.004 shows as 0.00: compared as shown, it is zero.
    expect(periodChange(shown('5.00'), money(4_000))).toBeNull();
  });

  it('compares money as shown (2 decimals, half to even)', () => {
    // 100.004 and 100.005 both show as 100.00.
    expect(periodChange(money(100_004_000), money(100_005_000))).toEqual({ direction: 'none', percent: '0.0' });
  });

  it('rounds the percentage once, half to even', () => {
    expect(periodChange(shown('200.10'), shown('200.00'))).toEqual({ direction: 'none', percent: '0.0' }); // 0.05
    expect(periodChange(shown('200.30'), shown('200.00'))).toEqual({ direction: 'up', percent: '0.2' }); // 0.15
    expect(periodChange(shown('200.50'), shown('200.00'))).toEqual({ direction: 'up', percent: '0.2' }); // 0.25
    expect(periodChange(shown('199.70'), shown('200.00'))).toEqual({ direction: 'down', percent: '0.2' }); // -0.15
    expect(periodChange(2, 3)).toEqual({ direction: 'down', percent: '33.3' });
    expect(periodChange(1, 3)).toEqual({ direction: 'down', percent: '66.7' });
  });

  it('measures against the size of a negative previous figure (refunds): from -100 to -50 is up 50%', () => {
    expect(periodChange(shown('-50.00'), shown('-100.00'))).toEqual({ direction: 'up', percent: '50.0' });
    expect(periodChange(shown('-150.00'), shown('-100.00'))).toEqual({ direction: 'down', percent: '50.0' });
  });
});

// --- Against the straightforward reference ------------------------------------------------------

/**
 * The reference change: integer cents (counts as whole units), the percentage in tenths as an
 * exact BigInt quotient, rounded half to even by hand, laid out with en-US grouping.
 */
function referenceChange(current: number | string, previous: number | string): Change | null {
  const units = (value: number | string) => (typeof value === 'number' ? BigInt(value) * 100n : BigInt(value.replace('.', '')));
  const before = units(previous);
  if (before === 0n) return null;
  const numerator = (units(current) - before) * 1000n;
  const denominator = before < 0n ? -before : before;
  let tenths = numerator / denominator;
  const remainder = numerator % denominator;
  const twice = 2n * (remainder < 0n ? -remainder : remainder);
  if (twice > denominator || (twice === denominator && tenths % 2n !== 0n)) tenths += numerator < 0n ? -1n : 1n;
  if (tenths === 0n) return { direction: 'none', percent: '0.0' };
  const magnitude = tenths < 0n ? -tenths : tenths;
  return {
    direction: tenths > 0n ? 'up' : 'down',
    percent: `${new Intl.NumberFormat('en-US').format(magnitude / 10n)}.${magnitude % 10n}`,
  };
}

function referenceChanges(current: DashboardStats, previous: DashboardStats): StatChanges {
  const figure = (stats: DashboardStats, stat: (typeof CHANGE_STATS)[number]) => {
    const value = stats[stat];
    return typeof value === 'number' ? value : value.display;
  };
  return Object.fromEntries(
    CHANGE_STATS.map((stat) => [stat, referenceChange(figure(current, stat), figure(previous, stat))]),
  ) as StatChanges;
}

/** The previous period counted out day by day: the range's day slots, as many steps back from its start. */
function referencePrevious(range: DateRange): DateRange {
  let start = range.start;
  for (let n = daySlots(range).length; n > 0; n--) start = start.minus({ days: 1 }).startOf('day');
  return { start, end: range.start };
}

const affiliates: Affiliate[] = [
  { id: 'p1', name: 'Parent One', parent_id: null },
  { id: 'a1', name: 'Alpha Travel', parent_id: 'p1' },
  { id: 'c1', name: 'Child One', parent_id: 'p1' },
];
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Auckland', 'UTC'];
const amount = fc.oneof(
  { arbitrary: fc.integer({ min: -20_000, max: 200_000 }).map((cents) => (cents / 100).toFixed(2)), weight: 6 },
  { arbitrary: fc.constantFrom('0.005', '10.125', '3.333333', '0.00'), weight: 2 },
  { arbitrary: fc.constant(null), weight: 1 },
);
const percent = fc.constantFrom('10.00', '12.5', '7.5', '3.125', '0.00', null);
const affiliateId = fc.constantFrom('p1', 'a1', 'c1', null);

const scenario = fc
  .record({
    zone: fc.constantFrom(...ZONES),
    first: fc.constantFrom('2026-03-27', '2026-04-03', '2026-10-23', '2026-11-01', '2026-12-31'),
    days: fc.integer({ min: 1, max: 12 }),
  })
  .chain(({ zone: zoneName, first, days }) => {
    const start = parseDay(first, zoneName)!;
    const end = start.plus({ days }).startOf('day');
    // Sales from before the previous period to after the range, and at the day boundaries.
    const earliest = start.minus({ days: days + 1 }).toMillis();
    const boundaries = [-days, 0, days].map((offset) => start.plus({ days: offset }).startOf('day').toMillis());
    const created = fc
      .oneof(
        fc.integer({ min: earliest, max: end.toMillis() + 86_400_000 }),
        fc.tuple(fc.constantFrom(...boundaries), fc.constantFrom(-1, 0)).map(([ms, delta]) => ms + delta),
      )
      .map((ms) => new Date(ms).toISOString());
    const event = fc
      .record({ id: fc.integer({ min: 1, max: 40 }), created, amount, pc: percent, affiliate: affiliateId })
      .map((spec): PaymentEvent => ({
        id: spec.id,
        created: spec.created,
        amount: spec.amount,
        order: {
          affiliate: spec.affiliate === null ? null : { affiliate_id: spec.affiliate },
          affiliate_commission_pc: spec.pc,
          plan: { product: 'Single Trip' },
          policy: [],
        },
      }));
    const fee = fc
      .record({
        id: fc.integer({ min: 1, max: 40 }),
        created,
        amount,
        pc: fc.option(percent),
        feeAmount: fc.option(amount),
        affiliate: affiliateId,
      })
      .map((spec): ConnectionFee => ({
        id: spec.id,
        created: spec.created,
        amount: spec.amount,
        affiliate: spec.affiliate === null ? null : { affiliate_id: spec.affiliate },
        connection_fee_pc: spec.pc,
        connection_fee_amount: spec.feeAmount,
      }));
    return fc.record({
      events: fc.array(event, { maxLength: 60 }),
      fees: fc.array(fee, { maxLength: 15 }),
      affiliates: fc.constant(affiliates),
      affiliateFilter: fc.constantFrom(null, null, 'p1', 'a1'),
      range: fc.constant({ start, end }),
      selectedDay: fc.constant(null),
      zone: fc.constant(zoneName),
    });
  });

describe('statChanges properties', () => {
  it('the previous period has as many day slots as the range and ends where it starts', () => {
    fc.assert(
      fc.property(scenario, ({ range }) => {
        expect(iso(previousPeriod(range))).toEqual(iso(referencePrevious(range)));
      }),
    );
  });

  it('equals the straightforward reference: bignumber.js figures of both periods, exact integer percentages', () => {
    fc.assert(
      fc.property(scenario, (input: DashboardInput) => {
        const previous = { ...input, range: previousPeriod(input.range) };
        const changes = statChanges(deriveDashboard(input).stats, deriveDashboard(previous).stats);
        const reference = { ...input, range: referencePrevious(input.range) };
        expect(changes).toEqual(referenceChanges(deriveDashboardReference(input).stats, deriveDashboardReference(reference).stats));
      }),
      { numRuns: 150 },
    );
  });

  it('shows a change exactly where the previous figure is not zero, and its direction follows the figures', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        (current, previous) => {
          const change = periodChange(money(current * 10_000), money(previous * 10_000));
          if (previous === 0) {
            expect(change).toBeNull();
            return;
          }
          expect(change).not.toBeNull();
          if (change!.direction === 'up') expect(current).toBeGreaterThan(previous);
          if (change!.direction === 'down') expect(current).toBeLessThan(previous);
          if (current === previous) expect(change!.direction).toBe('none');
        },
      ),
    );
  });
});
