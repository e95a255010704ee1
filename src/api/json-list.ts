// A JSON list answer read as it streams in: its items are parsed and validated a batch at a time
// while the rest is still arriving, so that a list of tens of megabytes is nearly all read by the
// time its last byte comes, instead of only starting then. A shorter answer is read whole once it
// is in, and so is anything but an array, as client.request reads an answer, so that every error
// says exactly what it would there.
import * as z from 'zod/mini';
import { notJson, validated } from './client.ts';

/** About a megabyte of text per JSON.parse: few calls, and little read twice on a batch's end. */
const BATCH_CHARS = 1 << 20;

/**
 * Where an answer starts to be read as it streams: one shorter than this is read whole once it is
 * all in. At 10,000 events (some 3 MB) the bytes come in faster than their items' ends could be
 * found, and one JSON.parse of the whole costs less than that search and a parse a batch at a time.
 */
export const STREAM_FROM_BYTES = 8 << 20;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Finds where the items of a JSON array end, text piece by text piece: the commas between the
 * array's own items and its closing bracket, outside strings and nested values. It trusts the
 * text to be JSON: whatever it gets wrong, JSON.parse of the batch finds.
 */
class ItemScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The array's closing bracket was seen. */
  closed = false;

  /** The array's opening bracket, seen before the text scanned next. */
  open(): void {
    this.depth = 1;
  }

  /** Scans text[from..]; answers the index of the last comma between items in it, or of the closing bracket, or -1. */
  scan(text: string, from: number): number {
    let last = -1;
    for (let i = from; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) this.inString = false;
      } else if (code === QUOTE) {
        this.inString = true;
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        this.depth++;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        this.depth--;
        if (this.depth === 0) {
          this.closed = true;
          return i;
        }
      } else if (code === COMMA && this.depth === 1) {
        last = i;
      }
    }
    return last;
  }
}

/**
 * The answer's body, a JSON array, as `item`s: parsed and validated as it arrives once `streamFrom`
 * bytes are in, else read whole. The errors are client.request's: 'the body is not JSON', or the
 * first issue with its item's index.
 */
export async function readJsonList<T>(
  path: string,
  response: Response,
  item: z.ZodMiniType<T>,
  { streamFrom = STREAM_FROM_BYTES }: { streamFrom?: number } = {},
): Promise<T[]> {
  const list = z.array(item);
  const items: T[] = [];
  /** Every piece of text, should the body have to be read whole after all. */
  const pieces: string[] = [];
  const scanner = new ItemScanner();
  const decoder = new TextDecoder();
  /** Text not parsed yet, in pieces: from the first unparsed item (after the array's '[' or a comma). */
  let pending: string[] = [];
  let pendingLength = 0;
  /** The end of the last complete item in the pending text (a comma or the closing bracket), or -1. */
  let boundary = -1;
  let opened = false;
  /** Read whole after all: not an array, or a batch that failed. */
  let whole = false;

  /** Parses and validates the pending items before `end`, keeping the text after it. */
  const parseUpTo = (end: number) => {
    const text = pending.join('');
    const parsed = validated(path, response, list.safeParse(JSON.parse(`[${text.slice(0, end)}]`)), items.length);
    for (const value of parsed) items.push(value);
    const rest = text.slice(end + 1);
    pending = [rest];
    pendingLength = rest.length;
    boundary = -1;
  };

  const take = (piece: string) => {
    pieces.push(piece);
    if (whole) return;
    let text = piece;
    if (!opened) {
      text = pending.join('') + piece;
      pending = [];
      pendingLength = 0;
      const start = text.search(/\S/);
      if (start < 0) {
        pending = [text];
        pendingLength = text.length;
        return;
      }
      // Not an array: read whole, as the client reads any answer.
      if (text.charCodeAt(start) !== OPEN_BRACKET) {
        whole = true;
        return;
      }
      opened = true;
      scanner.open();
      text = text.slice(start + 1);
    }
    // Only the new text is scanned, so that a long list costs one pass.
    const found = scanner.closed ? -1 : scanner.scan(text, 0);
    if (found >= 0) boundary = pendingLength + found;
    pending.push(text);
    pendingLength += text.length;
    if (boundary < 0 || (boundary < BATCH_CHARS && !scanner.closed)) return;
    try {
      parseUpTo(boundary);
    } catch {
      // Text that is not JSON, or an item of the wrong shape: the whole body decides which error
      // it is, as it would have (the first issue of a list is in its first failing batch).
      whole = true;
    }
  };

  /** The body's bytes while fewer than `streamFrom` are in; null once it is read as it streams. */
  let held: Uint8Array[] | null = [];
  let heldBytes = 0;
  const takeHeld = () => {
    for (const bytes of held ?? []) take(decoder.decode(bytes, { stream: true }));
    held = null;
  };

  const reader = response.body?.getReader();
  try {
    if (reader) {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        if (!held) {
          take(decoder.decode(chunk.value, { stream: true }));
          continue;
        }
        held.push(chunk.value);
        heldBytes += chunk.value.byteLength;
        if (heldBytes >= streamFrom) takeHeld();
      }
    }
    // All in before it was long enough to stream: read whole.
    if (held) whole = true;
    takeHeld();
    take(decoder.decode());
  } catch {
    // The body was cut off (or its read aborted): as response.json() would fail.
    throw notJson(path, response);
  }
  if (!whole && scanner.closed && boundary < 0 && pending.join('').trim() === '') return items;

  let data: unknown;
  try {
    data = JSON.parse(pieces.join(''));
  } catch {
    throw notJson(path, response);
  }
  return validated(path, response, list.safeParse(data));
}
