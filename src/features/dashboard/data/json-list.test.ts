import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { generateBenchData } from '../../../../bench/generate.ts';
import { ApiError, createApiClient } from '../../../api/client.ts';
import { readJsonList } from './json-list.ts';
import { paymentEventSchema } from '../../../api/schemas.ts';

const PATH = 'payment_events/';

/** An answer whose body arrives in pieces of `size` bytes (the last one shorter). */
function streamed(text: string, size: number, status = 200): Response {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
  return new Response(body, { status, headers: { 'Content-Type': 'application/json' } });
}

/** What the list reader makes of `text`: its items, or its error's message and kind. */
async function read(text: string, size = 4096): Promise<unknown> {
  try {
    return await readJsonList(PATH, streamed(text, size), paymentEventSchema);
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

/** A list written with a space after each comma between items, twice over: over 2 MB, read whole. */
const spacedTwice = (items: unknown[]) => `[${[...items, ...items].map((value) => JSON.stringify(value)).join(', ')}]`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a list answer read as it streams in', () => {
  it('reads the same items as the whole body would give, however the body is cut into pieces', async () => {
    const whole = await readWhole(text);
    expect(whole).toHaveLength(events.length);
    // Over 1 MB: several batches.
    expect(text.length).toBeGreaterThan(1 << 20);
    for (const size of [4096, 65_536, 1 << 30]) expect(await read(text, size), `pieces of ${size} bytes`).toEqual(whole);
    // Written with spaces: read whole.
    const spaced = spacedTwice(events);
    for (const size of [4096, 65_536]) expect(await read(spaced, size), `spaced, pieces of ${size} bytes`).toEqual(await readWhole(spaced));
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
    expect(await read(bad)).toEqual(expected);
    expect(await read(bad, 1 << 30)).toEqual(expected);
    const spaced = spacedTwice(wrong);
    expect(await read(spaced)).toEqual(await readWhole(spaced));
    expect(await read(spaced)).toMatchObject({ kind: 'schema', message: expect.stringContaining('4321.created') as string });
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
      expect(await read(body, 3_000), body.slice(0, 40)).toEqual(expected);
    }
  });

  it("cuts a compact list's batches at its items' separator, and reads any other list whole", async () => {
    const parse = vi.spyOn(JSON, 'parse');
    /** Its items as read in pieces of `size` bytes, and whether the body was parsed whole. */
    const readOf = async (body: string, size = 4096) => {
      parse.mockClear();
      const read = await readJsonList(PATH, streamed(body, size), paymentEventSchema);
      const whole = parse.mock.calls.some(([parsed]) => parsed === body);
      expect(read, body.slice(0, 40)).toEqual(await readWhole(body));
      return whole;
    };
    // As the API writes it: a batch ends before the last ',{"id":' in it.
    expect(await readOf(text)).toBe(false);
    expect(await readOf(text, 1 << 30)).toBe(false);
    // Policies whose first key is the items' own (zod drops it): in one piece, the last ',{"id":'
    // is inside the last item, that cut does not parse, and the body is read whole.
    const nested = events.map((event) => ({
      ...event,
      order: { ...event.order, policy: [0, 1].map((id) => ({ id, policy_number: `POL-${id}`, travelers: [] })) },
    }));
    expect(await readOf(JSON.stringify(nested), 1 << 30)).toBe(true);
    // Written with spaces between the items: no separator in two batches, read whole.
    const spaced = spacedTwice(events);
    expect(spaced.length).toBeGreaterThan(2 << 20);
    expect(await readOf(spaced)).toBe(true);
  });
});
