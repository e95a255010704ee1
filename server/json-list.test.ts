// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { jsonListAnswer } from './json-list.ts';

describe('a JSON list answer written as it goes', () => {
  const rows = Array.from({ length: 2_500 }, (_, id) => ({ id, text: `a "quoted", [bracketed] text ${id}` }));
  const item = (row: (typeof rows)[number]) => ({ id: row.id, text: row.text, even: row.id % 2 === 0 });

  it('is the JSON of the list, whatever its length, in batches of a thousand items', async () => {
    for (const length of [0, 1, 999, 1_000, 1_001, 2_500]) {
      const answer = jsonListAnswer(rows.slice(0, length), (row) => JSON.stringify(item(row)));
      expect(answer.headers.get('Content-Type')).toBe('application/json');
      const reader = answer.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
      const pieces: string[] = [];
      const decoder = new TextDecoder();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) pieces.push(decoder.decode(chunk.value));
      expect(pieces.join(''), `${length} items`).toBe(JSON.stringify(rows.slice(0, length).map(item)));
      expect(pieces, `${length} items`).toHaveLength(Math.max(1, Math.ceil(length / 1_000)));
    }
  });
});
