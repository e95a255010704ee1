// What crosses between the worker and the page: an answer, or its error as plain data, rebuilt on
// the page as the ApiError the client throws, so the texts and the retries are the same.
import { ApiError, type ErrorKind } from '../../../api/client.ts';

export interface WireError {
  message: string;
  /** Set for an ApiError: what went wrong, the status and the server's error body. */
  api: { kind: ErrorKind; status: number | null; body: Record<string, string | string[]> | null } | null;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: WireError };

function toWire(error: unknown): WireError {
  if (error instanceof ApiError) return { message: error.message, api: { kind: error.kind, status: error.status, body: error.body } };
  return { message: error instanceof Error ? error.message : String(error), api: null };
}

function fromWire(error: WireError): Error {
  return error.api ? new ApiError(error.message, error.api.kind, error.api.status, error.api.body) : new Error(error.message);
}

/** Runs `work`, turning a thrown error into an outcome that survives structured cloning. */
export async function settle<T>(work: () => T | Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: toWire(error) };
  }
}

/** The outcome's value, or its error rebuilt and thrown. */
export function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw fromWire(outcome.error);
}
