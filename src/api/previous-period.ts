// The stat boxes' change against the previous period (docs/product-rules.md, Change against the
// previous period): as long as the part of the range that has passed, ending where it starts. Its
// payment events and connection fees are asked only once the range's figures are on screen, so
// they never delay them; they go through the dashboard's data service (in the Web Worker) and the
// usual cache, like the range's own, with the same affiliate viewed as, and the service derives
// the previous figures exactly as it derives the range's, from what lies between its instants.
import { DateTime } from 'luxon';
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
  // What has passed of the range is measured once for every view of it (each affiliate, each day
  // selected: the same previous period, its lists from the cache), and again by the cache's rules
  // for the range's own lists: when its view is opened after the 5 minutes they stay fresh.
  const measured = useSWR<number, Error, readonly ['previous period measured', string, string] | null>(
    wire && ['previous period measured', wire.start, wire.end],
    () => Date.now(),
  );
  const at = measured.data;
  const start = wire?.start;
  const end = wire?.end;
  const zone = wire?.zone;
  const locale = wire?.locale;
  const previous = useMemo(
    () =>
      start === undefined || end === undefined || zone === undefined || locale === undefined || at === undefined
        ? null
        : previousPeriod(rangeOfQuery({ start, end, zone, locale }), DateTime.fromMillis(at)),
    [start, end, zone, locale, at],
  );
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
      // The period's instants: the service counts only what lies between them.
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
