// GET payment_events/ and connection_fees/ for a range: its start and end are ISO date-times of
// local day starts. The lists are read as they stream in (json-list.ts): at 100,000 events most of
// the work is done when the last byte comes.
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
