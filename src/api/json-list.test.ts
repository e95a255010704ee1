import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { generateBenchData } from '../../bench/generate.ts';
import { ApiError, createApiClient } from './client.ts';
import { readJsonList, STREAM_FROM_BYTES } from './json-list.ts';
import { paymentEventSchema } from './schemas.ts';

const PATH = 'payment_events/';

/** An answer whose body arrives in pieces of `size` bytes (the last one shorter); `onLast` runs as the last is asked for. */
function streamed(text: string, size: number, onLast = () => {}): Response {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      if (at + size >= bytes.length) onLast();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
}

/** Read as it streams from the first byte, or whole below the reader's own threshold. */
const MODES = { streaming: 0, whole: STREAM_FROM_BYTES } as const;

/** What the list reader makes of `text`: its items, or its error's message and kind. */
async function read(text: string, size = 4096, streamFrom: number = MODES.streaming): Promise<unknown> {
  try {
    return await readJsonList(PATH, streamed(text, size), paymentEventSchema, { streamFrom });
  } catch (error) {
    return error instanceof ApiError ? { message: error.message, kind: error.kind, status: error.status } : error;
  }
}

/** What client.request makes of the same body read whole, with the list's schema. */
async function readWhole(text: string): Promise<unknown> {
  const client = createApiClient({ baseUrl: '/api/v2/', fetch: () => Promise.resolve(streamed(text, 1 << 30)) });
  try {
    return await client.request(PATH, { schema: z.array(paymentEventSchema) });
  } catch (error) {
    return error instanceof ApiError ? { message: error.message, kind: error.kind, status: error.status } : error;
  }
}

const events = generateBenchData(5_000, 0).events;
// Text that a careless split would take for the end of an item: brackets, braces, commas and
// escaped quotes inside strings, and characters of several bytes that a piece may cut in two.
events[3]!.order.policy = [{ policy_number: 'POL-"},{"id":9}]', travelers: [{ first_name: 'Zoë \\"Ann\\"', last_name: '],[{' }] }];
events[4]!.order.plan = { product: 'Reise 🧳 über, Ærø' };
const text = JSON.stringify(events);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a list answer read as it streams in', () => {
  it('reads the same items as the whole body would give, however the body is cut into pieces', async () => {
    const whole = await readWhole(text);
    expect(whole).toHaveLength(events.length);
    // Over 1 MB: more than one batch.
    expect(text.length).toBeGreaterThan(1 << 20);
    for (const size of [4096, 65_536, 1 << 30]) {
      for (const [mode, streamFrom] of Object.entries(MODES))
        expect(await read(text, size, streamFrom), `${mode}, pieces of ${size} bytes`).toEqual(whole);
    }
    // In pieces of 1, 3 and 7 bytes every boundary is met in the middle of a token.
    const few = JSON.stringify(events.slice(0, 6));
    for (const size of [1, 3, 7]) expect(await read(few, size), `pieces of ${size} bytes`).toEqual(await readWhole(few));
  });

  it('reads an empty list, and whitespace around the array', async () => {
    expect(await read('[]')).toEqual([]);
    expect(await read(` \n[ ${JSON.stringify(events[0])} ]\n `, 5)).toEqual([events[0]]);
  });

  it('fails as the whole body would: the first wrong item by its index, in a later batch too', async () => {
    const wrong = structuredClone(events);
    (wrong[4_321] as { created: string }).created = 'yesterday';
    (wrong[4_400] as { id: unknown }).id = 'not a number';
    const bad = JSON.stringify(wrong);
    const expected = await readWhole(bad);
    expect(expected).toMatchObject({ kind: 'schema', message: expect.stringContaining('4321.created') as string });
    for (const streamFrom of Object.values(MODES)) {
      expect(await read(bad, 4096, streamFrom)).toEqual(expected);
      expect(await read(bad, 1 << 30, streamFrom)).toEqual(expected);
    }
  });

  it('fails as the whole body would on what is not a list of items', async () => {
    const cases = [
      '{"detail":"not a list"}',
      '[{"id":1},',
      text.slice(0, -10),
      `${text}]`,
      `${text} trailing`,
      '[1,2,]',
      '',
      'null',
      '[[]]',
    ];
    for (const body of cases) {
      const expected = await readWhole(body);
      expect(expected, body.slice(0, 40)).toMatchObject({ kind: 'schema' });
      for (const streamFrom of Object.values(MODES)) expect(await read(body, 3_000, streamFrom), body.slice(0, 40)).toEqual(expected);
    }
  });

  it('parses an answer shorter than STREAM_FROM_BYTES once it is all in, with one JSON.parse, and a longer one while it arrives', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    /** How many times the reader had called JSON.parse when the body's last piece was asked for, and in all. */
    const parses = async (streamFrom: number) => {
      parse.mockClear();
      let beforeLast = -1;
      const items = await readJsonList(
        PATH,
        streamed(text, 4096, () => (beforeLast = parse.mock.calls.length)),
        paymentEventSchema,
        { streamFrom },
      );
      expect(items).toHaveLength(events.length);
      return { beforeLast, total: parse.mock.calls.length };
    };
    expect(text.length).toBeLessThan(STREAM_FROM_BYTES);
    expect(await parses(STREAM_FROM_BYTES)).toEqual({ beforeLast: 0, total: 1 });
    // From 1 MB on, the first batch is parsed while the rest is still to come.
    const streaming = await parses(1 << 20);
    expect(streaming.beforeLast).toBeGreaterThan(0);
    expect(streaming.total).toBeGreaterThan(1);
  });
});
