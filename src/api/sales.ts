// GET payment_events/ and connection_fees/ for a range: start and end are ISO date-times of local
// day starts; end is left out where the range has none. The dashboard makes these calls in its
// data worker and caches handles to the lists (dashboard-data.ts).
import type { ApiClient } from './client.ts';
import { connectionFeeListSchema, paymentEventListSchema, type ConnectionFee, type PaymentEvent } from './schemas.ts';

export interface Range {
  start: string;
  end?: string;
}

export function fetchPaymentEvents(client: ApiClient, range: Range, signal?: AbortSignal): Promise<PaymentEvent[]> {
  return client.request('payment_events/', { query: { start: range.start, end: range.end }, schema: paymentEventListSchema, signal });
}

export function fetchConnectionFees(client: ApiClient, range: Range, signal?: AbortSignal): Promise<ConnectionFee[]> {
  return client.request('connection_fees/', { query: { start: range.start, end: range.end }, schema: connectionFeeListSchema, signal });
}
