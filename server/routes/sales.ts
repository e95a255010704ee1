// GET payment_events/ and connection_fees/ for ?start=ISO&end=ISO (end optional), limited to the
// affiliates the request may see. Connection fees belong to the connected affiliate's parent.
// Long lists go out as they are written (json-list.ts).
import { Hono } from 'hono';
import type { Context } from 'hono';
import { DateTime } from 'luxon';
import { requireAuth, scopeFilter } from '../auth.ts';
import type { AppEnv, ServerContext } from '../context.ts';
import { fieldErrors, messages } from '../http.ts';
import { jsonListAnswer, PAGE_BOUNDS_SQL, pageBounds, type CreatedRow, type PageReader } from '../json-list.ts';

interface PaymentEventRow {
  id: number;
  created: string;
  amount: string | null;
  affiliate_id: string | null;
  commission_pc: string | null;
  product: string;
  policies: string;
}

interface ConnectionFeeRow {
  id: number;
  created: string;
  amount: string | null;
  affiliate_id: string | null;
  connection_fee_pc: string | null;
  connection_fee_amount: string | null;
}

/** The longest range a list answers, in calendar days: what the portal lets anyone choose. */
export const MAX_RANGE_DAYS = 731;
/** The earliest day a range may start on. */
export const EARLIEST_START_DATE = '2000-01-01';

/**
 * The calendar days from the day `start` falls on to the end of the day `end` falls in (a range
 * ending at a midnight takes none of that day), each in its own offset: a range across a change
 * of daylight saving time is as long as its days, not its hours.
 */
function calendarDays(start: DateTime, end: DateTime): number {
  const day = (time: DateTime) => DateTime.fromISO(time.toISODate() ?? '', { zone: 'utc' });
  const endsInside = end.toMillis() > end.startOf('day').toMillis();
  return day(end)
    .plus({ days: endsInside ? 1 : 0 })
    .diff(day(start), 'days').days;
}

/**
 * The start and end query parameters as stored timestamps (UTC ISO, comparable as text). A range
 * is at most MAX_RANGE_DAYS long (without an end: until `now`) and starts no earlier than
 * EARLIEST_START_DATE in its own offset: a longer one is no view the portal shows, and costs a
 * reading of years of rows.
 */
function readRange(c: Context<AppEnv>, now: number): { start: string; end: string | null } {
  const errors: Record<string, string[]> = {};
  const parse = (name: 'start' | 'end', required: boolean): DateTime | null => {
    const value = c.req.query(name);
    if (value === undefined || value === '') {
      if (required) errors[name] = [messages.required];
      return null;
    }
    const time = DateTime.fromISO(value, { setZone: true });
    // Python's limits, as in Django: years 1-9999 (the stored text only compares within them) and
    // offsets under a day.
    if (!time.isValid || time.toUTC().year < 1 || time.toUTC().year > 9999 || Math.abs(time.offset) >= 24 * 60) {
      errors[name] = ['Enter a valid date/time.'];
      return null;
    }
    return time;
  };
  const start = parse('start', true);
  const end = parse('end', false);
  if (Object.keys(errors).length > 0 || start === null) throw fieldErrors(errors);
  if ((start.toISODate() ?? '') < EARLIEST_START_DATE) errors.start = [`The range may not start before ${EARLIEST_START_DATE}.`];
  if (calendarDays(start, end ?? DateTime.fromMillis(now, { zone: start.zone })) > MAX_RANGE_DAYS) {
    errors.end = [`The range may be at most ${MAX_RANGE_DAYS} days.`];
  }
  if (Object.keys(errors).length > 0) throw fieldErrors(errors);
  return { start: start.toUTC().toISO() ?? '', end: end?.toUTC().toISO() ?? null };
}

/**
 * A payment event's JSON. Its policies are stored as the JSON text of the list (JSON.stringify
 * writes them), and go into the answer as they are: parsing and writing them again cost more
 * than the rest of the event.
 */
function paymentEventJson(row: PaymentEventRow): string {
  const event = JSON.stringify({
    id: row.id,
    created: row.created,
    amount: row.amount,
    order: {
      affiliate: row.affiliate_id === null ? null : { affiliate_id: row.affiliate_id },
      affiliate_commission_pc: row.commission_pc,
      plan: { product: row.product },
    },
  });
  // The order's policy after its plan: before the order's and the event's closing braces.
  return `${event.slice(0, -2)},"policy":${row.policies}}}`;
}

type ListTable = 'payment_events' | 'connection_fees';
type Range = { start: string; end: string | null };

/** Orders rows as the answers do: by `created`, then id. */
const rowOrder = (a: CreatedRow, b: CreatedRow) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id - b.id);

/** A page of every affiliate's rows in the range that `where` keeps, in the answers' order (created, then id). */
const allRowsSql = (table: ListTable, where: string) =>
  `SELECT * FROM ${table}
   WHERE ${PAGE_BOUNDS_SQL} AND (? IS NULL OR created < ?) AND ${where}
   ORDER BY created, id LIMIT ?`;

/**
 * A page of one affiliate's rows in the range, in the answers' order, read from the index that
 * starts with the affiliate: the rows of other affiliates are never read.
 */
const affiliateRowsSql = (table: ListTable) =>
  `SELECT * FROM ${table} INDEXED BY ${table}_affiliate
   WHERE affiliate_id = ? AND ${PAGE_BOUNDS_SQL} AND (? IS NULL OR created < ?)
   ORDER BY created, id LIMIT ?`;

/** Every affiliate's rows in the range that `where` keeps, a page at a time after the last row read (json-list.ts). */
function allPages<Row extends CreatedRow>(ctx: ServerContext, table: ListTable, where: string, { start, end }: Range): PageReader<Row> {
  const page = ctx.db.prepare<unknown[], Row>(allRowsSql(table, where));
  return (after, limit) => page.all(...pageBounds(start, after), end, end, limit);
}

/**
 * The rows of `affiliates` in the range, a page at a time after the last row read. Each
 * affiliate's rows come in order from its index; the pages merge them. (One query over all of
 * them would need every remaining row of the range sorted again for each page.) Each affiliate's
 * rows are read ahead a page at a time and kept until sent, so that every row is read about once.
 */
function affiliatePages<Row extends CreatedRow>(ctx: ServerContext, table: ListTable, affiliates: string[], range: Range): PageReader<Row> {
  const page = ctx.db.prepare<unknown[], Row>(affiliateRowsSql(table));
  /** Each affiliate's rows read and not sent yet, whether it has more, and the next one to take. */
  const streams = affiliates.map((affiliate) => ({ affiliate, rows: [] as Row[], more: true, next: 0 }));
  /** Reads the stream's next rows, after its last one (or `after`). */
  const readMore = (stream: (typeof streams)[number], after: Row | null, limit: number) => {
    const rows = page.all(stream.affiliate, ...pageBounds(range.start, stream.rows.at(-1) ?? after), range.end, range.end, limit);
    stream.rows.push(...rows);
    stream.more = rows.length === limit;
  };
  return (after, limit) => {
    for (const stream of streams) {
      // The rows up to `after` were sent.
      if (after) {
        const unsent = stream.rows.findIndex((row) => rowOrder(row, after) > 0);
        stream.rows.splice(0, unsent < 0 ? stream.rows.length : unsent);
      }
      if (stream.rows.length === 0 && stream.more) readMore(stream, after, limit);
      stream.next = 0;
    }
    const taken: Row[] = [];
    while (taken.length < limit) {
      let first: (typeof streams)[number] | undefined;
      let firstRow: Row | undefined;
      for (const stream of streams) {
        const row = stream.rows[stream.next];
        if (row !== undefined && (firstRow === undefined || rowOrder(row, firstRow) < 0)) {
          first = stream;
          firstRow = row;
        }
      }
      if (!first || !firstRow) break;
      taken.push(firstRow);
      first.next += 1;
      // Its last row read is taken: its next one may come before the others'.
      if (first.next === first.rows.length && first.more) readMore(first, after, limit);
    }
    return taken;
  };
}

/** The affiliates whose parent is one of `parents`. */
function childrenOf(ctx: ServerContext, parents: string[]): string[] {
  const { sql, params } = scopeFilter({ all: false, affiliateIds: parents }, 'parent_id');
  return ctx.db
    .prepare<string[], { affiliate_id: string }>(`SELECT affiliate_id FROM affiliates WHERE ${sql}`)
    .all(...params)
    .map((row) => row.affiliate_id);
}

export function salesRoutes(ctx: ServerContext) {
  const app = new Hono<AppEnv>();
  const verified = requireAuth(ctx, { verified: true });

  app.get('/payment_events/', verified, (c) => {
    const scope = c.get('scope');
    const range = readRange(c, ctx.now());
    const pages = scope.all
      ? allPages<PaymentEventRow>(ctx, 'payment_events', '1 = 1', range)
      : affiliatePages<PaymentEventRow>(ctx, 'payment_events', scope.affiliateIds, range);
    return jsonListAnswer(pages, paymentEventJson);
  });

  app.get('/connection_fees/', verified, (c) => {
    const scope = c.get('scope');
    const range = readRange(c, ctx.now());
    // A fee is the parent's: the scope's fees are those of its affiliates' children (a fee of no
    // affiliate is nobody's).
    const pages = scope.all
      ? allPages<ConnectionFeeRow>(ctx, 'connection_fees', 'affiliate_id IS NOT NULL', range)
      : affiliatePages<ConnectionFeeRow>(ctx, 'connection_fees', childrenOf(ctx, scope.affiliateIds), range);
    return jsonListAnswer(pages, (row) =>
      JSON.stringify({
        id: row.id,
        created: row.created,
        amount: row.amount,
        affiliate: row.affiliate_id === null ? null : { affiliate_id: row.affiliate_id },
        connection_fee_pc: row.connection_fee_pc,
        connection_fee_amount: row.connection_fee_amount,
      }),
    );
  });

  return app;
}
