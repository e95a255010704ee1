// GET payment_events/ and connection_fees/ for a range: start and end are ISO date-times of local
// day starts; end is left out where the range has none. The dashboard makes these calls in its
// data worker and caches handles to the lists (dashboard-data.ts). The lists are read as they
// stream in (json-list.ts): at 100,000 events most of the work is done when the last byte comes.
import type { ApiClient } from './client.ts';
import { readJsonList } from './json-list.ts';
import { connectionFeeSchema, paymentEventSchema, type ConnectionFee, type PaymentEvent } from './schemas.ts';

export interface Range {
  start: string;
  end?: string;
}

export async function fetchPaymentEvents(client: ApiClient, range: Range, signal?: AbortSignal): Promise<PaymentEvent[]> {
  const path = 'payment_events/';
  return readJsonList(path, await client.answer(path, { query: { start: range.start, end: range.end }, signal }), paymentEventSchema);
}

export async function fetchConnectionFees(client: ApiClient, range: Range, signal?: AbortSignal): Promise<ConnectionFee[]> {
  const path = 'connection_fees/';
  return readJsonList(path, await client.answer(path, { query: { start: range.start, end: range.end }, signal }), connectionFeeSchema);
}
