// GET payment_events/ and connection_fees/ for a range (ISO date-times of local day starts), read
// as they stream in (json-list.ts).
import type { ApiClient } from '../../../api/client.ts';
import { connectionFeeSchema, paymentEventSchema, type ConnectionFee, type PaymentEvent } from '../../../api/schemas.ts';
import type { RangeQuery } from '../../../domain/dates.ts';
import { readJsonList } from './json-list.ts';

export async function fetchPaymentEvents(client: ApiClient, range: RangeQuery): Promise<PaymentEvent[]> {
  const path = 'payment_events/';
  return readJsonList(path, await client.answer(path, { query: { start: range.start, end: range.end } }), paymentEventSchema);
}

export async function fetchConnectionFees(client: ApiClient, range: RangeQuery): Promise<ConnectionFee[]> {
  const path = 'connection_fees/';
  return readJsonList(path, await client.answer(path, { query: { start: range.start, end: range.end } }), connectionFeeSchema);
}
