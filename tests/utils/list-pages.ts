// A list held in memory, read a page at a time as a route reads its rows (server/json-list.ts).
import type { PageReader } from '../../server/json-list.ts';

/** Reads `rows` a page after the row given; `reads` records the index each page starts at. */
export function pagesOf<Row>(rows: readonly Row[], reads: number[] = []): PageReader<Row> {
  return (after, limit) => {
    const from = after === null ? 0 : rows.indexOf(after) + 1;
    reads.push(from);
    return rows.slice(from, from + limit);
  };
}
