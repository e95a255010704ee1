// A JSON list answer read as it streams in: its items are parsed and validated a batch at a time
// while the rest is still arriving, so that a list of tens of megabytes is nearly all read by the
// time its last byte comes, instead of only starting then. Anything but an array is read whole,
// as client.request reads an answer, so that every error says exactly what it would there.
//
// A batch ends before the last item that has begun to arrive. For a list of objects written
// compactly, as the API writes them, that item starts at the last ',{"key":' (the first item's
// first key), found with lastIndexOf: its quotes are not escaped, so it is not inside a string,
// and a cut inside a nested value leaves a bracket open, which JSON.parse of the batch finds.
// Otherwise, and from a cut that does not parse on, the scanner reads the text character by
// character to find the items' ends, which costs the worker's fresh code some 20 ms per 3 MB.
import * as z from 'zod/mini';
import { notJson, validated } from '../../../api/client.ts';

/**
 * A quarter of a megabyte of text per JSON.parse: the first batch is read while the rest still
 * arrives, and the last, read after the last byte, is short; few calls all the same, and little
 * read twice on a batch's end.
 */
const BATCH_CHARS = 1 << 18;

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
export class ItemScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The array's closing bracket was seen. */
  closed = false;

  /** Scans from the start of an item of the array: just after its opening bracket or a comma between items. */
  open(): void {
    this.depth = 1;
    this.inString = false;
    this.escaped = false;
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

/** The separator before each item of a list of objects written compactly, from the first item's start ('{"id":'); null for any other list. */
function itemSeparator(firstItem: string): string | null {
  const key = /^\s*\{"([^"\\]*)":/.exec(firstItem)?.[1];
  return key === undefined ? null : `,{"${key}":`;
}

/**
 * The answer's body, a JSON array, as `item`s: parsed and validated as it arrives. The errors are
 * client.request's: 'the body is not JSON', or the first issue with its item's index.
 */
export async function readJsonList<T>(path: string, response: Response, item: z.ZodMiniType<T>): Promise<T[]> {
  const list = z.array(item);
  const items: T[] = [];
  /** Every piece of text, should the body have to be read whole after all. */
  const pieces: string[] = [];
  const decoder = new TextDecoder();
  /** Text not parsed yet, in pieces: from the first unparsed item (after the array's '[' or a comma). */
  let pending: string[] = [];
  let pendingLength = 0;
  let opened = false;
  /** Read whole after all: not an array, or a batch that failed. */
  let whole = false;
  /** The items' separator, once the first batch is in (undefined before); null: the scanner finds the items' ends. */
  let separator: string | null | undefined;
  const scanner = new ItemScanner();
  /** With the scanner: the end of the last complete item in the pending text (a comma or the closing bracket), or -1. */
  let boundary = -1;

  /** Validates the parsed items of a batch and keeps them, and the pending text after `end`. */
  const keep = (parsed: unknown, text: string, end: number) => {
    for (const value of validated(path, response, list.safeParse(parsed), items.length)) items.push(value);
    const rest = text.slice(end + 1);
    pending = [rest];
    pendingLength = rest.length;
    boundary = -1;
  };

  /** The scanner takes over from the start of the pending text. */
  const scan = (text: string) => {
    separator = null;
    scanner.open();
    boundary = scanner.scan(text, 0);
  };

  /**
   * Cuts a batch before the last item that starts in the pending text (or waits for more text).
   * False where the separator does not do: the cut does not parse, or there is none in two batches.
   */
  const cutAtSeparator = (text: string, separator: string): boolean => {
    const cut = text.lastIndexOf(separator);
    if (cut <= 0) return text.length < 2 * BATCH_CHARS;
    let parsed: unknown;
    try {
      parsed = JSON.parse(`[${text.slice(0, cut)}]`);
    } catch {
      return false;
    }
    keep(parsed, text, cut);
    return true;
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
      text = text.slice(start + 1);
    }
    // With the scanner, only the new text is scanned, so that a long list costs one pass.
    if (separator === null && !scanner.closed) {
      const found = scanner.scan(text, 0);
      if (found >= 0) boundary = pendingLength + found;
    }
    pending.push(text);
    pendingLength += text.length;
    if (pendingLength < BATCH_CHARS && !scanner.closed) return;
    try {
      if (separator !== null) {
        const joined = pending.join('');
        separator ??= itemSeparator(joined);
        if (separator !== null && cutAtSeparator(joined, separator)) return;
        scan(joined);
        pending = [joined];
      }
      if (boundary >= BATCH_CHARS || (scanner.closed && boundary >= 0)) {
        const joined = pending.join('');
        keep(JSON.parse(`[${joined.slice(0, boundary)}]`), joined, boundary);
      }
    } catch {
      // Text that is not JSON, or an item of the wrong shape: the whole body decides which error
      // it is, as it would have (the first issue of a list is in its first failing batch).
      whole = true;
    }
  };

  const reader = response.body?.getReader();
  try {
    if (reader) {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) take(decoder.decode(chunk.value, { stream: true }));
    }
    take(decoder.decode());
  } catch {
    // The body was cut off (or its read aborted): as response.json() would fail.
    throw notJson(path, response);
  }
  if (!whole && opened) {
    const rest = pending.join('');
    if (separator !== null) {
      // The last items and the closing bracket, if the body is the list it should be.
      try {
        keep(JSON.parse(`[${rest}`), rest, rest.length);
        return items;
      } catch {
        // Not JSON, or an item of the wrong shape: read whole below, for the error the whole body gives.
      }
    } else if (scanner.closed && boundary < 0 && rest.trim() === '') {
      return items;
    }
  }

  let data: unknown;
  try {
    data = JSON.parse(pieces.join(''));
  } catch {
    throw notJson(path, response);
  }
  return validated(path, response, list.safeParse(data));
}
