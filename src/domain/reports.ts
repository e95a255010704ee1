// The Reports screen's rules (see docs/product-rules.md, Reports): which reports are listed, which
// affiliates the selector offers, and how a report's period reads.
// Dates are the API's calendar days ('2026-11-01'), read as days, never as instants in a zone.
import { DateTime } from 'luxon';
import type { AffiliateReport } from '../api/schemas.ts';

/** The Reports screen shows at most 12 periods. */
export const MAX_REPORT_PERIODS = 12;

/** The fields of an affiliate these rules read (src/api/affiliates.ts maps the API's to them). */
export interface ReportAffiliate {
  id: string;
  name: string;
  parent_id: string | null;
}

type Dated = Pick<AffiliateReport, 'id' | 'affiliate_id' | 'start_date'>;

/** Newest period first; within one period, the higher id first (deterministic for ties). */
const newestFirst = (a: Dated, b: Dated): number => (a.start_date < b.start_date ? 1 : a.start_date > b.start_date ? -1 : b.id - a.id);

/**
 * For each (affiliate_id, start_date) keep the report with the highest id; sort by start_date,
 * newest first; keep 12. The 12 are counted per affiliate, since the table shows one affiliate's
 * periods; `reportsOf` below picks one affiliate's.
 */
export function latestReports<R extends Dated>(reports: readonly R[]): R[] {
  const latest = new Map<string, R>();
  for (const report of reports) {
    const key = JSON.stringify([report.affiliate_id, report.start_date]);
    const kept = latest.get(key);
    if (!kept || report.id > kept.id) latest.set(key, report);
  }
  const perAffiliate = new Map<string, number>();
  const kept: R[] = [];
  for (const report of [...latest.values()].sort(newestFirst)) {
    const count = perAffiliate.get(report.affiliate_id) ?? 0;
    if (count >= MAX_REPORT_PERIODS) continue;
    perAffiliate.set(report.affiliate_id, count + 1);
    kept.push(report);
  }
  return kept;
}

/**
 * The selector lists top-level affiliates (parent null) that have reports, sorted by name. Ties in
 * name keep a stable order by id.
 */
export function reportAffiliates<A extends ReportAffiliate>(
  affiliates: readonly A[],
  reports: readonly Pick<AffiliateReport, 'affiliate_id'>[],
): A[] {
  const withReports = new Set(reports.map((report) => report.affiliate_id));
  return affiliates
    .filter((affiliate) => affiliate.parent_id === null && withReports.has(affiliate.id))
    .sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The rows of the table: the latest reports of `affiliateId`, at most 12 periods. Without an
 * affiliate (none of the user's affiliates is top-level, or the affiliates could not be loaded)
 * every report the user may see counts, still at most the 12 most recent periods.
 */
export function reportsOf<R extends Dated>(reports: readonly R[], affiliateId: string | null): R[] {
  const chosen = affiliateId === null ? reports : reports.filter((report) => report.affiliate_id === affiliateId);
  return latestReports(chosen).slice(0, MAX_REPORT_PERIODS);
}

function day(date: string, what: string, locale: string | undefined): DateTime<true> {
  const parsed = DateTime.fromISO(date, { zone: 'utc', locale });
  if (!parsed.isValid) throw new RangeError(`Invalid ${what}: ${JSON.stringify(date)}`);
  return parsed.startOf('day');
}

/**
 * A report's period as the table shows it, in `locale` (by default the browser's, as amounts
 * have it): 'November 2026' when it is one whole calendar month (the 1st to the month's last
 * day), else its days: 'Nov 1 – Nov 15, 2026', or 'Dec 15, 2026 – Jan 14, 2027' across a year.
 */
export function periodLabel(report: Pick<AffiliateReport, 'start_date' | 'end_date'>, locale?: string): string {
  const start = day(report.start_date, 'start_date', locale);
  const end = day(report.end_date, 'end_date', locale);
  if (start.day === 1 && end.hasSame(start, 'month') && end.day === start.daysInMonth) {
    return start.toLocaleString({ month: 'long', year: 'numeric' });
  }
  if (start.hasSame(end, 'day')) return start.toLocaleString(DateTime.DATE_MED);
  if (start.hasSame(end, 'year'))
    return `${start.toLocaleString({ month: 'short', day: 'numeric' })} – ${end.toLocaleString(DateTime.DATE_MED)}`;
  return `${start.toLocaleString(DateTime.DATE_MED)} – ${end.toLocaleString(DateTime.DATE_MED)}`;
}
