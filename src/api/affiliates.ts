// GET affiliates/: mapped to {id, name, parent_id} and sorted by name.
import useSWR from 'swr';
import type { ApiClient, ApiScope } from './client.ts';
import { affiliateListSchema } from './schemas.ts';

/** What an affiliate selector shows when the list could not be loaded. */
export const affiliateListErrors = { reports: 'Error loading affiliates!', selector: 'Error!' } as const;

export interface Affiliate {
  id: string;
  name: string;
  parent_id: string | null;
}

export async function fetchAffiliates(client: ApiClient, options: { ownView?: boolean; signal?: AbortSignal } = {}): Promise<Affiliate[]> {
  const list = await client.request('affiliates/', { schema: affiliateListSchema, impersonate: !options.ownView, signal: options.signal });
  return list
    .map((affiliate) => ({ id: affiliate.affiliate_ID, name: affiliate.name, parent_id: affiliate.parent }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The affiliates the user (or the affiliate viewed as) may see, cached per impersonated affiliate. */
export function useAffiliates({ client, impersonated }: ApiScope) {
  return useSWR<Affiliate[], Error>(['affiliates', impersonated], () => fetchAffiliates(client));
}

/** Every affiliate the superuser may view as: its own view, whoever it is viewing as now. */
export function useOwnAffiliates(client: ApiClient, enabled: boolean) {
  return useSWR<Affiliate[], Error>(enabled ? ['affiliates', 'own view'] : null, () => fetchAffiliates(client, { ownView: true }));
}
