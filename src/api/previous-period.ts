// The stat boxes' change against the previous period (docs/product-rules.md, Change against the
// previous period). Its payment events and connection fees are asked only once the range's
// figures are on screen, so they never delay them; they go through the dashboard's data service
// (in the Web Worker) and the usual cache, like the range's own, with the same affiliate viewed
// as, and the service derives the previous figures exactly as it derives the range's.
import { useMemo } from 'react';
import useSWR from 'swr';
import useSWRImmutable from 'swr/immutable';
import type { DashboardStats } from '../domain/dashboard-model.ts';
import { previousPeriod, toQuery, type DateRange } from '../domain/dates.ts';
import type { StatChanges } from '../domain/period-change.ts';
import type { Affiliate } from './affiliates.ts';
import { listKey, type CachedList, type ChangeRequest, type DashboardData } from './dashboard-data.ts';

export interface ShownFigures {
  /** The range whose figures are on screen; null until the first are. */
  range: DateRange | null;
  /** Those figures. */
  stats: DashboardStats | null;
  affiliates: readonly Affiliate[] | undefined;
  affiliateFilter: string | null;
  impersonated: string | null;
}

/** Each stat box's change against the previous period; null until known (or when its data failed). */
export function useStatChanges(data: DashboardData, shown: ShownFigures): StatChanges | null {
  const { range, stats, affiliates, affiliateFilter, impersonated } = shown;
  const previous = useMemo(() => (range === null ? null : previousPeriod(range)), [range]);
  const query = useMemo(() => (previous === null ? null : toQuery(previous)), [previous]);

  const events = useSWR<CachedList, Error>(query && listKey('payment_events', query, impersonated), () =>
    data.list('payment_events', query!, impersonated),
  );
  const fees = useSWR<CachedList, Error>(query && listKey('connection_fees', query, impersonated), () =>
    data.list('connection_fees', query!, impersonated),
  );

  const request = useMemo<ChangeRequest | null>(() => {
    if (!previous || !query || !stats || !affiliates || !events.data || !fees.data) return null;
    return {
      events: events.data.id,
      fees: fees.data.id,
      affiliates,
      affiliateFilter,
      range: { ...query, zone: previous.start.zoneName, locale: previous.start.locale },
      current: stats,
    };
  }, [previous, query, stats, affiliates, events.data, fees.data, affiliateFilter]);

  // Follows from its request alone (the shown figures are part of it, by value): never stale, and
  // a failure is not retried; the lists' calls are, by the cache's usual rules.
  const changes = useSWRImmutable<StatChanges, Error, readonly ['stat changes', ChangeRequest] | null>(
    request && ['stat changes', request],
    ([, asked]) => data.change(asked),
    { shouldRetryOnError: false },
  );
  return request !== null && changes.error === undefined ? (changes.data ?? null) : null;
}
