// GET payment_events/ and connection_fees/ for a range: start and end are ISO date-times of local
// day starts (decisions.md section 1); end is left out where the range has none.
import useSWR from 'swr';
import type { ApiClient, ApiScope } from './client.ts';
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

/** Payment events of a range, cached per range and impersonated affiliate. */
export function usePaymentEvents({ client, impersonated }: ApiScope, range: Range) {
  return useSWR<PaymentEvent[], Error>(['payment_events', range.start, range.end ?? null, impersonated], () => fetchPaymentEvents(client, range));
}

/** Connection fees of a range, cached per range and impersonated affiliate. */
export function useConnectionFees({ client, impersonated }: ApiScope, range: Range) {
  return useSWR<ConnectionFee[], Error>(['connection_fees', range.start, range.end ?? null, impersonated], () => fetchConnectionFees(client, range));
}
