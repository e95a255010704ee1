// Demo data for the reference API, relative to today: affiliates, demo accounts, an invite,
// 14 months of sales and connection fees, and the monthly reports available by today, whose
// figures are the dashboard's for their month (computed again whenever sales are added).
// Sales are drawn from a PRNG seeded per (local day, affiliate) and their ids derive from the
// day, so a day always gets the same rows whenever seeding runs; later runs only top up.
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { withDescendants } from './auth.ts';
import { type Db, getMeta, setMeta } from './db.ts';
import { hashPasswordSync } from './passwords.ts';
import { REPORT_ZONE_KEY, reportFigures, type ReportRow } from './report-file.ts';

export const DEMO_PASSWORD = 'Portal-demo-2026';

export interface DemoAccount {
  username: string;
  email: string;
  affiliateId: string | null;
  isSuperuser: boolean;
  method: 'totp' | 'email' | null;
  totpSecret?: string;
  description: string;
}

/** Every demo account signs in with DEMO_PASSWORD. TOTP secrets are Base32, 32 characters (20 bytes). */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    username: 'globetrotter',
    email: 'globetrotter@demo.example',
    affiliateId: 'AFF-100',
    isSuperuser: false,
    method: 'totp',
    totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    description: 'parent affiliate with two children, signs in with an authenticator app',
  },
  {
    username: 'berlin',
    email: 'berlin@demo.example',
    affiliateId: 'AFF-110',
    isSuperuser: false,
    method: 'email',
    description: 'child affiliate, signs in with e-mailed codes',
  },
  {
    username: 'sunny',
    email: 'sunny@demo.example',
    affiliateId: 'AFF-200',
    isSuperuser: false,
    method: null,
    description: 'has not set up two-factor authentication yet',
  },
  {
    username: 'nomad',
    email: 'nomad@demo.example',
    affiliateId: 'AFF-300',
    isSuperuser: false,
    method: null,
    description: 'has not set up two-factor authentication yet (a second account for the other setup path)',
  },
  {
    username: 'admin',
    email: 'admin@demo.example',
    affiliateId: null,
    isSuperuser: true,
    method: 'totp',
    totpSecret: 'OBXXE5DBNQWWCZDNNFXC2ZDFNVXS2MRW',
    description: 'superuser who can view the portal as any affiliate',
  },
];

/** The demo invite (for AFF-120, Globetrotter Lisbon): /invite/<DEMO_INVITE_ID>. */
export const DEMO_INVITE_ID = '3b9f6c2e-8d41-4a7b-9e05-1c6d2f8a7b40';

const DEMO_INVITE_AFFILIATE = 'AFF-120';
const DEMO_INVITE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

interface DemoAffiliate {
  id: string;
  name: string;
  parentId: string | null;
}

/** Parents before children (foreign keys). AFF-400 has no sales and so no reports. */
const AFFILIATES: readonly DemoAffiliate[] = [
  { id: 'AFF-100', name: 'Globetrotter Travel', parentId: null },
  { id: 'AFF-110', name: 'Globetrotter Berlin', parentId: 'AFF-100' },
  { id: 'AFF-120', name: 'Globetrotter Lisbon', parentId: 'AFF-100' },
  { id: 'AFF-200', name: 'Sunny Trips', parentId: null },
  { id: 'AFF-300', name: 'Nomad Cover Partners', parentId: null },
  { id: 'AFF-310', name: 'Nomad Students', parentId: 'AFF-300' },
  { id: 'AFF-400', name: 'Quiet Harbour Agency', parentId: null },
];

/** Selling affiliates; `platformShare` is the share of their sales made with 0 commission. */
interface Seller {
  id: string;
  index: number;
  platformShare: number;
  isChild: boolean;
}

const SELLERS: readonly Seller[] = [
  ['AFF-100', 0.15],
  ['AFF-110', 0],
  ['AFF-120', 0],
  ['AFF-200', 0.15],
  ['AFF-300', 1],
  ['AFF-310', 0],
].map(([id, platformShare], index) => ({
  id: id as string,
  index,
  platformShare: platformShare as number,
  isChild: AFFILIATES.some((affiliate) => affiliate.id === id && affiliate.parentId !== null),
}));

/** Reports go to top-level affiliates that have sales. */
const REPORTED_AFFILIATES = SELLERS.filter((seller) => !seller.isChild).map((seller) => seller.id);

/** Sales are seeded from the first day of the month this many months before today's month. */
const MONTHS_OF_HISTORY = 14;
/** A month's report is available from this day of the following month. */
const REPORT_DAY = 15;

const PRODUCTS = ['Single Trip', 'Annual Multi-Trip', 'Backpacker'] as const;
const COMMISSION_PCS = ['10.00', '12.50', '15.00'] as const;
const FIRST_NAMES = [
  'Anna',
  'Ben',
  'Chloé',
  'David',
  'Elif',
  'Farid',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Keiko',
  'Lena',
  'Marco',
  'Nora',
  'Omar',
  'Paula',
] as const;
const LAST_NAMES = [
  'Schmidt',
  'Silva',
  'Murphy',
  'Novak',
  'Yilmaz',
  'Okafor',
  'Larsen',
  'García',
  'Rossi',
  'Tanaka',
  'Dubois',
  'Kowalski',
] as const;

/** YYYY-MM-DD of a local date (luxon answers null only for an invalid DateTime). */
function isoDate(date: DateTime): string {
  const text = date.toISODate();
  if (text === null) throw new Error(`Invalid date: ${date.invalidExplanation ?? 'unknown'}`);
  return text;
}

// --- Deterministic randomness -------------------------------------------------------------

/** A small PRNG (mulberry32) seeded with the FNV-1a hash of `key`. */
function createRandom(key: string) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  let state = hash >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  const chance = (probability: number): boolean => next() < probability;
  return { next, int, pick, chance };
}
type Random = ReturnType<typeof createRandom>;

// --- One day of sales ---------------------------------------------------------------------

interface Traveler {
  first_name: string;
  last_name: string;
}
interface Policy {
  policy_number: string;
  travelers: Traveler[];
}

interface DemoSale {
  id: number;
  time: number; // ms
  amount: string;
  affiliateId: string;
  commissionPc: string | null;
  product: string;
  policies: Policy[];
  /** Child affiliates' sales earn their parent a connection fee. */
  fee: { pc: string | null; amount: string | null } | null;
}

/** A cent-exact decimal string; rarely with a third decimal ("49.995") to exercise rounding. */
function randomAmount(random: Random, minCents = 2000, maxCents = 40000): string {
  if (random.chance(0.02)) {
    const thousandths = random.int(minCents, maxCents - 1) * 10 + 5;
    return `${Math.floor(thousandths / 1000)}.${String(thousandths % 1000).padStart(3, '0')}`;
  }
  const cents = random.int(minCents, maxCents);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Platform sales have commission "0.00" (or NULL, which also means 0); the others a usual rate. */
function randomCommissionPc(random: Random, seller: Seller): string | null {
  if (random.chance(seller.platformShare)) return random.chance(0.1) ? null : '0.00';
  return random.chance(0.03) ? '17.50' : random.pick(COMMISSION_PCS);
}

/** Usually one policy with 1-3 travellers; about 5% with no traveller, about 3% with no policy. */
function randomPolicies(random: Random, usedNumbers: Set<string>): Policy[] {
  if (random.chance(0.03)) return [];
  let policyNumber: string;
  do policyNumber = `TP-${String(random.int(0, 999999)).padStart(6, '0')}`;
  while (usedNumbers.has(policyNumber));
  usedNumbers.add(policyNumber);
  const travelerCount = random.chance(0.05) ? 0 : random.int(1, 3);
  return [{ policy_number: policyNumber, travelers: Array.from({ length: travelerCount }, () => randomTraveler(random)) }];
}

function randomTraveler(random: Random): Traveler {
  return { first_name: random.pick(FIRST_NAMES), last_name: random.pick(LAST_NAMES) };
}

/** Mostly 5% of the sale, sometimes a flat 2.50, rarely nothing (fee 0). */
function randomFee(random: Random): DemoSale['fee'] {
  const draw = random.next();
  if (draw < 0.8) return { pc: '5.00', amount: null };
  if (draw < 0.95) return { pc: null, amount: '2.50' };
  return { pc: null, amount: null };
}

/** Unique, stable ids: days since 1970-01-01 of the local date * 100 + seller * 10 + n. */
function firstIdOfDay(day: DateTime, seller: Seller): number {
  return (Date.UTC(day.year, day.month - 1, day.day) / DAY_MS) * 100 + seller.index * 10;
}

/** The whole local day's sales of one seller: 0-3 sales at random times, plus sometimes a same-day policy change. */
function salesOfDay(day: DateTime, seller: Seller): DemoSale[] {
  const random = createRandom(`${isoDate(day)}|${seller.id}`);
  const dayStart = day.toMillis();
  const daySeconds = (day.plus({ days: 1 }).toMillis() - dayStart) / 1000; // 23-25 hours with DST
  const count = random.pick([0, 1, 1, 1, 2, 2, 2, 3, 3]);
  const times = Array.from({ length: count }, () => dayStart + Math.floor(random.next() * daySeconds) * 1000).sort((a, b) => a - b);
  const usedNumbers = new Set<string>();
  const firstId = firstIdOfDay(day, seller);
  const sales = times.map((time, n): DemoSale => ({
    id: firstId + n,
    time,
    amount: randomAmount(random),
    affiliateId: seller.id,
    commissionPc: randomCommissionPc(random, seller),
    product: random.pick(PRODUCTS),
    policies: randomPolicies(random, usedNumbers),
    fee: seller.isChild ? randomFee(random) : null,
  }));
  const change = policyChange(random, sales, firstId + count, dayStart + daySeconds * 1000);
  return change ? [...sales, change] : sales;
}

/**
 * Sometimes a traveller is added to a policy later the same day: a second sale with the same
 * policy number, which the dashboard merges into one Sales Details row (same day, same policy).
 */
function policyChange(random: Random, sales: DemoSale[], id: number, dayEnd: number): DemoSale | null {
  const original = sales.find((sale) => sale.policies[0]?.travelers.length);
  if (!original || !random.chance(0.08)) return null;
  const [policy] = original.policies as [Policy];
  return {
    ...original,
    id,
    time: original.time + Math.floor(random.next() * ((dayEnd - original.time) / 1000)) * 1000,
    amount: randomAmount(random, 2000, 12000),
    policies: [{ policy_number: policy.policy_number, travelers: [...policy.travelers, randomTraveler(random)] }],
    fee: original.fee ? randomFee(random) : null,
  };
}

// --- Writing ------------------------------------------------------------------------------

/** Inserts the days' sales that happened before `cutoff`; existing ids are kept (top-up). */
function insertSales(db: Db, days: DateTime[], cutoff: number): { events: number; fees: number } {
  const insertEvent = db.prepare(
    `INSERT OR IGNORE INTO payment_events (id, created, amount, affiliate_id, commission_pc, product, policies)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFee = db.prepare(
    `INSERT OR IGNORE INTO connection_fees (id, created, amount, affiliate_id, connection_fee_pc, connection_fee_amount)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const counts = { events: 0, fees: 0 };
  for (const day of days) {
    for (const seller of SELLERS) {
      for (const sale of salesOfDay(day, seller)) {
        if (sale.time >= cutoff) continue;
        const created = new Date(sale.time).toISOString();
        counts.events += insertEvent.run(
          sale.id,
          created,
          sale.amount,
          sale.affiliateId,
          sale.commissionPc,
          sale.product,
          JSON.stringify(sale.policies),
        ).changes;
        if (sale.fee) counts.fees += insertFee.run(sale.id, created, sale.amount, sale.affiliateId, sale.fee.pc, sale.fee.amount).changes;
      }
    }
  }
  return counts;
}

/** Full months from `firstMonth` whose report date (the 15th of the next month) is not after today. */
function availableMonths(firstMonth: DateTime, today: DateTime): DateTime[] {
  const months: DateTime[] = [];
  for (let month = firstMonth; month.plus({ months: 1 }).set({ day: REPORT_DAY }) <= today; month = month.plus({ months: 1 })) {
    months.push(month);
  }
  return months;
}

/**
 * Inserts the reports that are available and missing, month by month, with the dashboard's
 * figures for the affiliate and the month in `zone`; about one in five was issued twice (a month
 * computed again gets a new report with a higher id, here with the same figures).
 */
function insertReports(db: Db, firstMonth: DateTime, today: DateTime, zone: string): number {
  const exists = db.prepare('SELECT 1 FROM reports WHERE affiliate_id = ? AND start_date = ?');
  const insert = db.prepare(
    `INSERT INTO reports (report_date, start_date, end_date, affiliate_id, sales, premium_collected, commission, connection_fees)
     VALUES (@report_date, @start_date, @end_date, @affiliate_id, @sales, @premium_collected, @commission, @connection_fees)`,
  );
  let inserted = 0;
  for (const month of availableMonths(firstMonth, today)) {
    const period = {
      report_date: isoDate(month.plus({ months: 1 }).set({ day: REPORT_DAY })),
      start_date: isoDate(month),
      end_date: isoDate(month.endOf('month')),
    };
    for (const affiliateId of REPORTED_AFFILIATES) {
      if (exists.get(affiliateId, period.start_date)) continue;
      const figures = reportFigures(db, { affiliateId, startDate: period.start_date, endDate: period.end_date }, zone);
      const issues = createRandom(`${period.start_date}|${affiliateId}|report`).chance(0.2) ? 2 : 1;
      for (let issue = 0; issue < issues; issue++) insert.run({ ...period, affiliate_id: affiliateId, ...figures });
      inserted += issues;
    }
  }
  return inserted;
}

/**
 * Sales added to a month that has its reports already (a seed size, or a day seeded again) are
 * counted in them: every report's figures are computed again from the stored sales and fees.
 */
function recountReports(db: Db, zone: string): number {
  const update = db.prepare(
    'UPDATE reports SET sales = @sales, premium_collected = @premium_collected, commission = @commission, connection_fees = @connection_fees WHERE id = @id',
  );
  let changed = 0;
  for (const report of db.prepare('SELECT * FROM reports ORDER BY id').all() as ReportRow[]) {
    const figures = reportFigures(db, { affiliateId: report.affiliate_id, startDate: report.start_date, endDate: report.end_date }, zone);
    const same = (Object.keys(figures) as (keyof typeof figures)[]).every((key) => figures[key] === report[key]);
    if (!same) changed += update.run({ id: report.id, ...figures }).changes;
  }
  return changed;
}

/** Adds the affiliates (the demo's unless given) that are missing; answers how many it added. */
function insertAffiliates(db: Db, affiliates: readonly DemoAffiliate[] = AFFILIATES): number {
  const insert = db.prepare('INSERT OR IGNORE INTO affiliates (affiliate_id, name, parent_id) VALUES (?, ?, ?)');
  return affiliates.reduce((count, { id, name, parentId }) => count + insert.run(id, name, parentId).changes, 0);
}

/** Inserts the demo accounts that are missing; returns their usernames. */
function insertUsers(db: Db): string[] {
  const exists = db.prepare('SELECT 1 FROM users WHERE username = ?');
  const missing = DEMO_ACCOUNTS.filter((account) => !exists.get(account.username));
  if (missing.length === 0) return [];
  // One scrypt hash (tens of milliseconds) serves every demo account: they share the password.
  const passwordHash = hashPasswordSync(DEMO_PASSWORD);
  const insert = db.prepare(
    `INSERT OR IGNORE INTO users (username, email, password_hash, affiliate_id, is_superuser, twofa_method, totp_secret)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  return missing
    .filter(
      (account) =>
        insert.run(
          account.username,
          account.email,
          passwordHash,
          account.affiliateId,
          account.isSuperuser ? 1 : 0,
          account.method,
          account.totpSecret ?? null,
        ).changes > 0,
    )
    .map((account) => account.username);
}

/** The demo invite is created (valid for 30 days from now) only when it does not exist. */
function insertDemoInvite(db: Db, now: number): boolean {
  const result = db
    .prepare('INSERT OR IGNORE INTO invites (id, affiliate_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
    .run(DEMO_INVITE_ID, DEMO_INVITE_AFFILIATE, now, now + DEMO_INVITE_DAYS * DAY_MS);
  return result.changes > 0;
}

// --- A seed size for benchmarks -------------------------------------------------------------

/** The demo account whose dashboard a seed size fills: globetrotter, AFF-100 and its children. */
export const SEED_SIZE_ACCOUNT = 'globetrotter';
const SEED_SIZE_AFFILIATE = 'AFF-100';
/** Far above the demo's day-based ids (days since 1970 * 100 + n: about 2,000,000). */
const FIRST_SEED_SIZE_ID = 1_000_000_000;

/**
 * Tops up globetrotter's last 30 days (the dashboard's default range, [today - 30 days, now) in
 * `today`'s zone) to `events` payment events and events / 5 connection fees: sales of AFF-100
 * (some of them platform sales) and of its children, each child sale with its connection fee as
 * in the demo data. Rows already there count, so the totals come out exact whenever the demo
 * data has fewer; existing rows are never changed.
 */
function insertSeedSize(db: Db, today: DateTime, events: number): { events: number; fees: number } {
  if (!Number.isInteger(events) || events < 0) throw new RangeError(`A seed size is a whole number of payment events, got ${events}`);
  // The affiliates whose rows globetrotter's account sees, as the API decides it.
  const visible = withDescendants(db, SEED_SIZE_AFFILIATE);
  const children = visible.filter((id) => id !== SEED_SIZE_AFFILIATE);
  const start = today.startOf('day').minus({ days: 30 }).startOf('day').toMillis();
  const end = today.toMillis();
  const count = (table: string, affiliates: string[]) =>
    (
      db
        .prepare(
          `SELECT count(*) AS n FROM ${table} WHERE created >= ? AND created < ? AND affiliate_id IN (${affiliates.map(() => '?').join(', ')})`,
        )
        .get(new Date(start).toISOString(), new Date(end).toISOString(), ...affiliates) as { n: number }
    ).n;
  const eventsToAdd = Math.max(0, events - count('payment_events', visible));
  // Connection fees are the parent's on its children's sales.
  const feesToAdd = Math.min(eventsToAdd, Math.max(0, Math.round(events / 5) - count('connection_fees', children)));
  const lastId = (db.prepare('SELECT max(id) AS id FROM payment_events WHERE id >= ?').get(FIRST_SEED_SIZE_ID) as { id: number | null }).id;
  const firstId = (lastId ?? FIRST_SEED_SIZE_ID - 1) + 1;
  const random = createRandom(`seed-size|${isoDate(today)}|${firstId}`);
  const parent = SELLERS.find((seller) => seller.id === SEED_SIZE_AFFILIATE) as Seller;
  const childSellers = SELLERS.filter((seller) => children.includes(seller.id));
  const insertEvent = db.prepare(
    `INSERT INTO payment_events (id, created, amount, affiliate_id, commission_pc, product, policies) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFee = db.prepare(
    `INSERT INTO connection_fees (id, created, amount, affiliate_id, connection_fee_pc, connection_fee_amount) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  for (let n = 0; n < eventsToAdd; n++) {
    const id = firstId + n;
    // The first feesToAdd sales are the children's; their times are random, so they mix.
    const seller = n < feesToAdd ? random.pick(childSellers) : parent;
    const created = new Date(start + Math.floor(random.next() * (end - start))).toISOString();
    const amount = randomAmount(random);
    const policies: Policy[] = random.chance(0.03)
      ? []
      : [
          {
            policy_number: `TB-${String(id - FIRST_SEED_SIZE_ID).padStart(7, '0')}`,
            travelers: Array.from({ length: random.int(1, 3) }, () => randomTraveler(random)),
          },
        ];
    insertEvent.run(id, created, amount, seller.id, randomCommissionPc(random, seller), random.pick(PRODUCTS), JSON.stringify(policies));
    if (n < feesToAdd) {
      const fee = randomFee(random);
      insertFee.run(id, created, amount, seller.id, fee?.pc ?? null, fee?.amount ?? null);
    }
  }
  return { events: eventsToAdd, fees: feesToAdd };
}

// --- Partner organisations at scale ----------------------------------------------------------

/** SEED_AFFILIATES adds at most this many: enough to try any list, small enough for a demo database. */
export const MAX_SEED_AFFILIATES = 100_000;
/** Seeded affiliates are numbered from here, above the demo's own ids. */
const FIRST_SEED_AFFILIATE = 1000;

const BRANDS = [
  'Atlas',
  'Aurora',
  'Blue Horizon',
  'Caravan',
  'Compass',
  'Coral Coast',
  'Evergreen',
  'Far Away',
  'Fjord',
  'Harbour Light',
  'Island Hop',
  'Jetstream',
  'Kestrel',
  'Lighthouse',
  'Long Haul',
  'Meridian',
  'Northwind',
  'Oasis',
  'Odyssey',
  'Pathfinder',
  'Polaris',
  'Red Kite',
  'Sahara',
  'Seabreeze',
  'Silverline',
  'Skyward',
  'Summit',
  'Suntrail',
  'Tidewater',
  'Trailblazer',
  'Voyager',
  'Wanderlust',
  'Waypoint',
  'Westwind',
  'Zephyr',
  'Alpenglow',
  'Bon Voyage',
  'Cielo',
  'Horizonte',
  'Mistral',
] as const;
const KINDS = ['Travel', 'Tours', 'Holidays', 'Reisen', 'Viagens', 'Voyages', 'Trips', 'Journeys'] as const;
/** Branch cities, many with accents, as partners write them. */
const CITIES = [
  'Berlin',
  'Lisbon',
  'Zürich',
  'São Paulo',
  'Kraków',
  'Málaga',
  'Göteborg',
  'Besançon',
  'München',
  'Köln',
  'Düsseldorf',
  'Genève',
  'Porto',
  'Sevilla',
  'Barcelona',
  'Madrid',
  'València',
  'Paris',
  'Lyon',
  'Marseille',
  'Nice',
  'Bordeaux',
  'Toulouse',
  'Lille',
  'Bruxelles',
  'Antwerpen',
  'Amsterdam',
  'Rotterdam',
  'Utrecht',
  'København',
  'Aarhus',
  'Oslo',
  'Bergen',
  'Stockholm',
  'Malmö',
  'Helsinki',
  'Tallinn',
  'Riga',
  'Vilnius',
  'Warszawa',
  'Gdańsk',
  'Praha',
  'Brno',
  'Wien',
  'Graz',
  'Salzburg',
  'Budapest',
  'Bratislava',
  'Ljubljana',
  'Zagreb',
  'Split',
  'Beograd',
  'Sofia',
  'București',
  'Athína',
  'Thessaloníki',
  'İstanbul',
  'İzmir',
  'Roma',
  'Milano',
  'Napoli',
  'Torino',
  'Firenze',
  'Venezia',
  'Bologna',
  'Palermo',
  'Dublin',
  'Cork',
  'London',
  'Manchester',
  'Edinburgh',
  'Glasgow',
  'Cardiff',
  'Reykjavík',
  'Hamburg',
  'Frankfurt',
  'Stuttgart',
  'Leipzig',
  'Dresden',
  'Nürnberg',
  'Bremen',
  'Hannover',
  'Basel',
  'Bern',
  'Luzern',
  'Lausanne',
  'Montréal',
  'Québec',
  'Toronto',
  'Vancouver',
  'New York',
  'Boston',
  'Chicago',
  'Miami',
  'Ciudad de México',
  'Bogotá',
  'Lima',
  'Santiago',
  'Buenos Aires',
  'Córdoba',
  'Curitiba',
  'Florianópolis',
  'Cape Town',
  'Marrakech',
  'Tunis',
  'Dubai',
] as const;
/** Branches of a city branch. */
const SITES = ['Airport', 'Central Station', 'Old Town', 'Harbour', 'University', 'City Centre'] as const;

/**
 * The first `count` partner organisations of an endless, fixed list: top-level organisations named
 * like the demo's ('Atlas Travel', 'Wanderlust Reisen'), many with city branches ('Atlas Berlin')
 * and some of those with branches of their own ('Atlas Berlin Airport'), parents before their
 * children. Each is drawn from its own place in the list, so a larger count only adds to a
 * smaller one.
 */
export function seedAffiliates(count: number): DemoAffiliate[] {
  const taken = new Set(AFFILIATES.map((affiliate) => affiliate.name));
  const list: DemoAffiliate[] = [];
  const add = (name: string, parentId: string | null): string | null => {
    if (list.length >= count) return null;
    const id = `AFF-${FIRST_SEED_AFFILIATE + list.length}`;
    list.push({ id, name, parentId });
    taken.add(name);
    return id;
  };
  for (let organisation = 0; list.length < count; organisation++) {
    const brand = BRANDS[organisation % BRANDS.length] as string;
    const kind = KINDS[Math.floor(organisation / BRANDS.length) % KINDS.length] as string;
    const round = Math.floor(organisation / (BRANDS.length * KINDS.length));
    // Once every brand has every kind, organisations are named after their home city too.
    const name = round === 0 ? `${brand} ${kind}` : `${brand} ${CITIES[(organisation + round) % CITIES.length]} ${kind}`;
    if (taken.has(name)) continue;
    const parent = add(name, null);
    const random = createRandom(`seed-affiliates|${organisation}`);
    const branches = random.pick([0, 0, 0, 1, 2, 3, 4, 6, 8]);
    const first = random.int(0, CITIES.length - 1);
    for (let branch = 0; branch < branches && parent !== null; branch++) {
      const city = CITIES[(first + branch * 7) % CITIES.length] as string;
      const branchName = [`${brand} ${city}`, `${name} ${city}`].find((candidate) => !taken.has(candidate));
      if (branchName === undefined) continue;
      const child = add(branchName, parent);
      if (child === null || !random.chance(0.15)) continue;
      for (let site = 0, sites = random.int(1, 2); site < sites; site++)
        add(`${branchName} ${SITES[(branch + site) % SITES.length]}`, child);
    }
  }
  return list;
}

/** Adds the first `count` partner organisations of seedAffiliates that are missing; answers how many it added. */
function insertSeedAffiliates(db: Db, count: number): number {
  if (!Number.isInteger(count) || count < 0 || count > MAX_SEED_AFFILIATES)
    throw new RangeError(`A number of seed affiliates is a whole number up to ${MAX_SEED_AFFILIATES}, got ${count}`);
  return insertAffiliates(db, seedAffiliates(count));
}

// --- Entry points -------------------------------------------------------------------------

export interface DemoDataOptions {
  today: DateTime;
  log?: (line: string) => void;
  /**
   * A seed size for benchmarks: about this many payment events and a fifth as many connection
   * fees in globetrotter's last 30 days (see insertSeedSize). Without it, the demo data alone.
   */
  seedEvents?: number;
  /** Partner organisations added to the demo's (seedAffiliates), to try the portal with thousands. */
  seedAffiliates?: number;
}

/**
 * Seeds the demo data, or tops it up. meta `seeded_from` keeps the first seeded day and
 * `seeded_through` the last one: a later run re-reads that last day (it may have been seeded
 * only up to the time of that run) and adds the following days up to `today`'s time of day,
 * then the reports that became available. Existing rows are never changed, except the figures of
 * reports whose month got more sales.
 */
export function ensureDemoData(db: Db, options: DemoDataOptions): void {
  const { today } = options;
  const log = options.log ?? (() => {});
  const todayDate = today.startOf('day');
  db.transaction(() => {
    const affiliates = insertAffiliates(db);
    if (affiliates > 0) log(`Created ${affiliates} demo affiliates`);
    if (options.seedAffiliates !== undefined) {
      const added = insertSeedAffiliates(db, options.seedAffiliates);
      if (added > 0) log(`Seed affiliates ${options.seedAffiliates}: added ${added} partner organisations`);
    }
    for (const username of insertUsers(db)) log(`Created demo account ${username}`);
    if (insertDemoInvite(db, today.toMillis())) log(`Created demo invite ${DEMO_INVITE_ID} for ${DEMO_INVITE_AFFILIATE}`);

    // The demo's days, and so its reports' months, are counted in the zone of its first seeding.
    const zone = getMeta(db, REPORT_ZONE_KEY) ?? today.zone.name;
    const seededFrom = getMeta(db, 'seeded_from') ?? isoDate(todayDate.startOf('month').minus({ months: MONTHS_OF_HISTORY }));
    const seededThrough = getMeta(db, 'seeded_through');
    const firstDay = DateTime.fromISO(seededThrough ?? seededFrom, { zone: today.zone });
    const days: DateTime[] = [];
    for (let day = firstDay; day <= todayDate; day = day.plus({ days: 1 })) days.push(day);

    const { events, fees } = insertSales(db, days, today.toMillis());
    let added = { events: 0, fees: 0 };
    if (options.seedEvents !== undefined) {
      added = insertSeedSize(db, today, options.seedEvents);
      if (added.events + added.fees > 0) {
        log(
          `Seed size ${options.seedEvents}: added ${added.events} payment events and ${added.fees} connection fees to ${SEED_SIZE_ACCOUNT}'s last 30 days`,
        );
      }
    }
    const recounted = events + fees + added.events + added.fees > 0 ? recountReports(db, zone) : 0;
    if (recounted > 0) log(`Counted the added sales in ${recounted} reports`);
    const reports = insertReports(db, DateTime.fromISO(seededFrom, { zone: today.zone }).startOf('month'), todayDate, zone);
    setMeta(db, REPORT_ZONE_KEY, zone);
    setMeta(db, 'seeded_from', seededFrom);
    if (!seededThrough || seededThrough < isoDate(todayDate)) setMeta(db, 'seeded_through', isoDate(todayDate));

    if (events + fees + reports === 0) {
      log(`Demo data already seeded through ${getMeta(db, 'seeded_through')}`);
      return;
    }
    if (events + fees > 0) log(`Seeded ${events} payment events and ${fees} connection fees from ${isoDate(firstDay)}`);
    if (reports > 0) log(`Seeded ${reports} reports`);
    log(`Seeded demo data through ${isoDate(todayDate)}`);
  })();
}

/** Creates an invite for an existing affiliate, valid for `days` (default 14); returns its id. */
export function createInvite(db: Db, affiliateId: string, options: { now: number; days?: number }): string {
  const affiliate = db.prepare('SELECT 1 FROM affiliates WHERE affiliate_id = ?').get(affiliateId);
  if (!affiliate) throw new Error(`Unknown affiliate: ${affiliateId}`);
  const id = randomUUID();
  const days = options.days ?? 14;
  db.prepare('INSERT INTO invites (id, affiliate_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
    id,
    affiliateId,
    options.now,
    options.now + days * DAY_MS,
  );
  return id;
}
