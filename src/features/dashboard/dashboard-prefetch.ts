// The calls of the dashboard's default range (Last 30 days), started for the dashboard's cache
// before the page's code has arrived: its fetchers take the answers up (src/api/dashboard-data.ts).
import { dashboardData } from '../../api/dashboard-data.ts';
import type { Session } from '../../app/session.ts';
import { dateRange, toQuery } from '../../domain/dates.ts';

export function prefetchDashboard(session: Session): void {
  dashboardData(session.calls).prefetch(toQuery(dateRange('last30')), session.impersonation.getSnapshot().context.affiliateId);
}
