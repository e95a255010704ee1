// Deterministic, realistic dashboard data for the bench: payment events and connection fees over a
// 31-day range (with a DST change), as the API sends them (JSON, parsed by the SPA's zod schemas).
import { DateTime } from 'luxon';
import type { Affiliate } from '../src/api/affiliates.ts';
import { connectionFeeListSchema, paymentEventListSchema, type ConnectionFee, type PaymentEvent } from '../src/api/schemas.ts';
import type { DateRange } from '../src/domain/dates.ts';

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BenchData {
  events: PaymentEvent[];
  fees: ConnectionFee[];
  affiliates: Affiliate[];
  range: DateRange;
  zone: string;
}

const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson'];
const COMMISSIONS = ['10.00', '12.50', '15.00', '7.50', '20.00', '12.75'];

export function generateBenchData(eventCount = 100_000, feeCount = 20_000, seed = 20261101): BenchData {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const zone = 'Europe/Berlin';
  // October 2026: summer time ends on the 25th, so one day lasts 25 hours.
  const start = DateTime.fromISO('2026-10-01', { zone }).startOf('day') as DateTime<true>;
  const end = start.plus({ days: 31 }).startOf('day');
  const range = { start, end };
  const startMs = start.toMillis();
  const spanMs = end.toMillis() - startMs;

  const parents = ['p1', 'p2', 'p3'];
  const affiliates: Affiliate[] = [
    ...parents.map((id, index) => ({ id, name: `Parent Agency ${index + 1}`, parent_id: null })),
    ...Array.from({ length: 12 }, (_, index) => ({
      id: `a${index + 1}`,
      // One affiliate without a name: the tables fall back to its id.
      name: index === 11 ? '' : `Travel Partner ${String.fromCharCode(65 + index)}`,
      parent_id: parents[index % parents.length]!,
    })),
  ];
  const affiliateIds = affiliates.map((affiliate) => affiliate.id);

  // The API's layout: microseconds, and either Z or a +01:00 offset.
  const created = (): string => {
    const ms = startMs + Math.floor(random() * spanMs);
    const micros = String(Math.floor(random() * 1000)).padStart(3, '0');
    if (random() < 0.5) return new Date(ms).toISOString().replace('Z', `${micros}Z`);
    return new Date(ms + 3_600_000).toISOString().replace('Z', `${micros}+01:00`);
  };
  const money = (min: number, max: number): string => (min + Math.floor(random() * (max - min) * 100) / 100).toFixed(2);

  const events = Array.from({ length: eventCount }, (_, index) => {
    const platform = random() < 0.15;
    const travelers = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
      first_name: pick(FIRST_NAMES),
      last_name: random() < 0.05 ? null : pick(LAST_NAMES),
    }));
    const hasPolicy = random() < 0.9;
    return {
      id: 1_000_000 + index,
      created: created(),
      amount: random() < 0.02 ? null : money(15, 2500),
      order: {
        affiliate: random() < 0.02 ? null : { affiliate_id: pick(affiliateIds) },
        affiliate_commission_pc: platform ? (random() < 0.5 ? '0.00' : null) : pick(COMMISSIONS),
        plan: { product: pick(['Single Trip', 'Annual Multi-Trip', 'Backpacker']) },
        policy: hasPolicy
          ? [
              {
                policy_number: `POL-${String(Math.floor(random() * 60_000)).padStart(6, '0')}`,
                travelers: random() < 0.03 ? [] : travelers,
              },
            ]
          : [],
      },
    };
  });

  const fees = Array.from({ length: feeCount }, (_, index) => {
    const kind = random();
    return {
      // An item's id is its sale's: a third are sales that are also payment events here.
      id: random() < 0.33 ? 1_000_000 + Math.floor(random() * eventCount) : 1_000_000 + eventCount + index,
      created: created(),
      amount: random() < 0.03 ? null : money(15, 2500),
      affiliate: random() < 0.03 ? null : { affiliate_id: pick(affiliateIds.slice(parents.length)) },
      connection_fee_pc: kind < 0.6 ? pick(['5.00', '2.50', '3.125']) : null,
      connection_fee_amount: kind >= 0.6 && kind < 0.9 ? money(1, 40) : null,
    };
  });

  // As the SPA receives them: JSON text, parsed and validated by the response schemas.
  return {
    events: paymentEventListSchema.parse(JSON.parse(JSON.stringify(events))),
    fees: connectionFeeListSchema.parse(JSON.parse(JSON.stringify(fees))),
    affiliates,
    range,
    zone,
  };
}
