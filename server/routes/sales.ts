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

/** The start and end query parameters as stored timestamps (UTC ISO, comparable as text). */
function readRange(c: Context<AppEnv>): { start: string; end: string | null } {
  const errors: Record<string, string[]> = {};
  const parse = (name: 'start' | 'end', required: boolean): string | null => {
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
    return time.toUTC().toISO();
  };
  const start = parse('start', true);
  const end = parse('end', false);
  if (Object.keys(errors).length > 0 || start === null) throw fieldErrors(errors);
  return { start, end };
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

/**
 * The rows of `table` in the range that `where` (with its `params`) keeps, a page at a time in
 * the answers' order (created, then id), each page after the last row read (json-list.ts).
 */
function rangePages<Row extends CreatedRow>(
  ctx: ServerContext,
  table: 'payment_events' | 'connection_fees',
  where: string,
  params: string[],
  { start, end }: { start: string; end: string | null },
): PageReader<Row> {
  const page = ctx.db.prepare<unknown[], Row>(
    `SELECT * FROM ${table}
     WHERE ${PAGE_BOUNDS_SQL} AND (? IS NULL OR created < ?) AND ${where}
     ORDER BY created, id LIMIT ?`,
  );
  return (after, limit) => page.all(...pageBounds(start, after), end, end, ...params, limit);
}

export function salesRoutes(ctx: ServerContext) {
  const app = new Hono<AppEnv>();
  const verified = requireAuth(ctx, { verified: true });

  app.get('/payment_events/', verified, (c) => {
    const scope = scopeFilter(c.get('scope'), 'affiliate_id');
    const pages = rangePages<PaymentEventRow>(ctx, 'payment_events', scope.sql, scope.params, readRange(c));
    return jsonListAnswer(pages, paymentEventJson);
  });

  app.get('/connection_fees/', verified, (c) => {
    const scope = scopeFilter(c.get('scope'), 'parent_id');
    const where = `affiliate_id IN (SELECT affiliate_id FROM affiliates WHERE ${scope.sql})`;
    const pages = rangePages<ConnectionFeeRow>(ctx, 'connection_fees', where, scope.params, readRange(c));
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
