// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { pagesOf } from '../tests/utils/list-pages.ts';
import { jsonListAnswer, PAGE_ROWS, pageBounds, type PageReader } from './json-list.ts';

async function readAll(answer: Response): Promise<string[]> {
  const reader = answer.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const pieces: string[] = [];
  const decoder = new TextDecoder();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) pieces.push(decoder.decode(chunk.value));
  return pieces;
}

describe('a JSON list answer written as it goes', () => {
  const rows = Array.from({ length: 2_500 }, (_, id) => ({ id, text: `a "quoted", [bracketed] text ${id}` }));
  const item = (row: (typeof rows)[number]) => ({ id: row.id, text: row.text, even: row.id % 2 === 0 });

  it('is the JSON of the list, whatever its length, a page of a thousand items at a time', async () => {
    expect(PAGE_ROWS).toBe(1_000);
    for (const length of [0, 1, 999, 1_000, 1_001, 2_000, 2_500]) {
      const answer = jsonListAnswer(pagesOf(rows.slice(0, length)), (row) => JSON.stringify(item(row)));
      expect(answer.headers.get('Content-Type')).toBe('application/json');
      const pieces = await readAll(answer);
      expect(pieces.join(''), `${length} items`).toBe(JSON.stringify(rows.slice(0, length).map(item)));
      expect(pieces, `${length} items`).toHaveLength(Math.max(1, Math.ceil(length / 1_000)));
    }
  });

  it('reads a page only as the one before leaves, never the whole list first', async () => {
    const reads: number[] = [];
    const answer = jsonListAnswer(pagesOf(rows, reads), (row) => JSON.stringify(item(row)));
    // The first page is read with the request: a failure to read it is the request's.
    expect(reads).toEqual([0]);
    const body = answer.body!.getReader();
    await body.read();
    // The first page has left, and the second is read, while 500 rows are still unread.
    expect(reads).toEqual([0, 1_000]);
    await body.read();
    await body.read();
    expect(reads).toEqual([0, 1_000, 2_000]);
    expect((await body.read()).done).toBe(true);
  });

  it('fails the request, not the body, when its first page cannot be read', () => {
    const broken: PageReader<unknown> = () => {
      throw new Error('database is locked');
    };
    expect(() => jsonListAnswer(broken, JSON.stringify)).toThrow('database is locked');
  });
});

describe('the bounds of a page', () => {
  it("start at the range's start, then at the last row's instant, past its id", () => {
    expect(pageBounds('2026-11-01T00:00:00.000Z', null)).toEqual(['2026-11-01T00:00:00.000Z', '', 0]);
    expect(pageBounds('2026-11-01T00:00:00.000Z', { created: '2026-11-03T10:00:00.000Z', id: 42 })).toEqual([
      '2026-11-03T10:00:00.000Z',
      '2026-11-03T10:00:00.000Z',
      42,
    ]);
  });
});
