// A JSON list answer written as it goes: its items are turned into JSON a batch at a time, each
// batch leaving (through compressAnswers) while the next is made, so that a client reading the
// list as it streams (the portal's dashboard does) works on it long before the last item is
// written, and the server never holds the whole text of a long list at once.

/** Items per batch: some 270 KB of payment events, a few milliseconds of the event loop each. */
const BATCH_ITEMS = 1_000;

/** A 200 answer of `rows` as a JSON array of the items `json(row)` writes, a batch at a time. */
export function jsonListAnswer<Row>(rows: readonly Row[], json: (row: Row) => string): Response {
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const end = Math.min(next + BATCH_ITEMS, rows.length);
      const batch: string[] = [];
      for (let index = next; index < end; index++) batch.push(json(rows[index]!));
      controller.enqueue(encoder.encode(`${next === 0 ? '[' : ','}${batch.join(',')}${end === rows.length ? ']' : ''}`));
      next = end;
      if (next === rows.length) controller.close();
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'application/json' } });
}
