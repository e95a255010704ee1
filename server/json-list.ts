// A JSON list answer written as it goes: its rows are read a page at a time and turned into JSON,
// a page ahead of what the answer's reader has taken (compressAnswers takes the first megabyte
// before anything leaves), so that a client reading the list as it streams (the portal's dashboard
// does) works on it long before the last row is read (reading all of 100,000 payment events first
// kept the first byte back some 270 ms), and the server never holds a long list's rows at once.
// Each page is read after the last row sent (created, then id): no row is sent twice, none that
// was there when the answer began is left out, and a row written meanwhile is in it only if it
// sorts after the rows already sent.

/** Rows per page: some 270 KB of payment events, a few milliseconds of the event loop each. */
export const PAGE_ROWS = 1_000;

/** Reads the rows after `after` (from the first where null), in the answer's order: at most `limit` of them. */
export type PageReader<Row> = (after: Row | null, limit: number) => readonly Row[];

/**
 * A 200 answer of the rows `read` gives, page after page, as a JSON array of the items `json(row)`
 * writes. The first page is read at once: a failure to read it is the request's, not the body's.
 */
export function jsonListAnswer<Row>(read: PageReader<Row>, json: (row: Row) => string): Response {
  const encoder = new TextEncoder();
  let text = '[';
  /** The next page, or null once the last has left. */
  let next: readonly Row[] | null = read(null, PAGE_ROWS + 1);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      // One row more than a page: whether another page follows is known without reading it.
      const rows = next!;
      const more = rows.length > PAGE_ROWS;
      const page = more ? rows.slice(0, PAGE_ROWS) : rows;
      controller.enqueue(encoder.encode(`${text}${page.map((row) => json(row)).join(',')}${more ? '' : ']'}`));
      text = ',';
      next = more ? read(page.at(-1)!, PAGE_ROWS + 1) : null;
      if (!more) controller.close();
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'application/json' } });
}

/** A row of a list read in the order of its `created` text, then its id. */
export interface CreatedRow {
  created: string;
  id: number;
}

/**
 * The parameters of a page's bounds, `created >= ? AND (created > ? OR id > ?)`, for the rows from
 * `start` on (the range's start) after `after`: its lower bound on `created` starts the index's
 * scan at that row's instant rather than at the range's start again, and the rows of that instant
 * up to its id are skipped. No `after`: the range's first page (every text is greater than '').
 */
export const pageBounds = (start: string, after: CreatedRow | null): [string, string, number] =>
  after ? [after.created, after.created, after.id] : [start, '', 0];

/** The SQL condition pageBounds gives the parameters of. */
export const PAGE_BOUNDS_SQL = 'created >= ? AND (created > ? OR id > ?)';
