// The stat boxes' change against the previous period (docs/product-rules.md, Change against the
// previous period). Its payment events and connection fees are asked only once the range's
// figures are on screen, so they never delay them; they go through the dashboard's data service
// (in the Web Worker) and the usual cache, like the range's own, with the same affiliate viewed
// as, and the service derives the previous figures exactly as it derives the range's.
import { useMemo } from 'react';
import useSWR from 'swr';
import useSWRImmutable from 'swr/immutable';
import { previousPeriod, rangeOfQuery, toQuery } from '../domain/dates.ts';
import type { StatChanges } from '../domain/period-change.ts';
import { listKey, type CachedList, type ChangeRequest, type DashboardData, type ShownView } from './dashboard-data.ts';

/**
 * Each stat box's change against the previous period of the dashboard on screen (`shown`, null
 * until the first is): of the range, affiliates and filter its figures were derived from, as the
 * affiliate viewed as (whose lists they are). Null until known, or when its data failed.
 */
export function useStatChanges(data: DashboardData, shown: ShownView | null, impersonated: string | null): StatChanges | null {
  const wire = shown?.request.range ?? null;
  const previous = useMemo(() => (wire === null ? null : previousPeriod(rangeOfQuery(wire))), [wire]);
  const query = useMemo(() => (previous === null ? null : toQuery(previous)), [previous]);

  const events = useSWR<CachedList, Error>(query && listKey('payment_events', query, impersonated), () =>
    data.list('payment_events', query!, impersonated),
  );
  const fees = useSWR<CachedList, Error>(query && listKey('connection_fees', query, impersonated), () =>
    data.list('connection_fees', query!, impersonated),
  );

  const request = useMemo<ChangeRequest | null>(() => {
    if (!shown || !previous || !query || !events.data || !fees.data) return null;
    return {
      events: events.data.id,
      fees: fees.data.id,
      affiliates: shown.request.affiliates,
      affiliateFilter: shown.request.affiliateFilter,
      range: { ...query, zone: previous.start.zoneName, locale: previous.start.locale },
      current: shown.dashboard.stats,
    };
  }, [shown, previous, query, events.data, fees.data]);

  // Follows from its request alone (the shown figures are part of it, by value): never stale, and
  // a failure is not retried; the lists' calls are, by the cache's usual rules.
  const changes = useSWRImmutable<StatChanges, Error, readonly ['stat changes', ChangeRequest] | null>(
    request && ['stat changes', request],
    ([, asked]) => data.change(asked),
    { shouldRetryOnError: false },
  );
  return request !== null && changes.error === undefined ? (changes.data ?? null) : null;
}
