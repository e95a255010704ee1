// The Sales Dashboard (spec section 2): all affiliates on /, one on /affiliate/{id}. The view
// renders the dashboard machine's state (date mode, selected day, chart mode) and the data of the
// machine's range, which the dashboard's data service (in a Web Worker) loads and derives with
// deriveDashboard; SWR holds handles to it (src/api/dashboard-data.ts). The view sends what the
// user does and does no arithmetic. While another range loads, the last dashboard stays on screen.
import { useMachine, useSelector } from '@xstate/react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { SnapshotFrom } from 'xstate';
import { useLocation } from 'wouter';
import { selectClaims } from '../../../machines/auth.ts';
import { selectChartMode } from '../../../machines/chart-mode.ts';
import { dashboardMachine } from '../../../machines/dashboard.ts';
import { selectDateMode } from '../../../machines/date-range.ts';
import { dashboardData, useDashboardAffiliates, useDashboardList, useDashboardView, type ViewRequest } from '../../api/dashboard-data.ts';
import { useApiScope, useAuthSelector, useSession } from '../../app/session-context.tsx';
import { Alert } from '../../components/alert.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { env } from '../../config/env.ts';
import type { Dashboard } from '../../domain/dashboard-model.ts';
import { dateRange, parseDay, toQuery } from '../../domain/dates.ts';
import { ChartPanel } from './chart-panel.tsx';
import { AffiliateSelect, DateRangeControls } from './dashboard-controls.tsx';
import { ServerDataProvider, useIsFinalError } from '../../app/server-data.tsx';
import { DetailTables } from './detail-tables.tsx';
import { SummaryGrid } from './summary-grid.tsx';
import { useToday } from './use-today.ts';
import './dashboard.css';

/** The three child machines; invoked at the root, so they run as long as the dashboard does. */
function childrenOf(snapshot: SnapshotFrom<typeof dashboardMachine>) {
  const { dateRange: range, selectedDay, chartMode } = snapshot.children;
  if (!range || !selectedDay || !chartMode) throw new Error('The dashboard machine runs dateRange, selectedDay and chartMode');
  return { range, selectedDay, chartMode };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function SalesDashboard({ affiliateId }: { affiliateId: string | null }) {
  const [snapshot, send] = useMachine(dashboardMachine);
  const machines = childrenOf(snapshot);
  const mode = useSelector(machines.range, selectDateMode);
  const customStart = useSelector(machines.range, (s) => s.context.customStart);
  const customEnd = useSelector(machines.range, (s) => s.context.customEnd);
  const selectedDay = useSelector(machines.selectedDay, (s) => s.context.day);
  const chartMode = useSelector(machines.chartMode, selectChartMode);
  const [, navigate] = useLocation();
  const headingId = useId();

  const today = useToday();
  const range = useMemo(() => dateRange(mode, { customStart, customEnd, now: parseDay(today) ?? undefined }), [mode, customStart, customEnd, today]);
  const query = useMemo(() => toQuery(range), [range]);
  const scope = useApiScope();

  // "The filter is also cleared when the date range or affiliate changes": the affiliate is the
  // route's (chosen here, by a tab, the browser's history or a link) within the view of the
  // affiliate viewed as; the router and the header are outside the machine, so the machine is
  // told here when they change it.
  const view = `${scope.impersonated ?? ''}/${affiliateId ?? ''}`;
  const shownView = useRef(view);
  useEffect(() => {
    if (shownView.current === view) return;
    shownView.current = view;
    send({ type: 'AFFILIATE.CHANGED' });
  }, [view, send]);
  const data = dashboardData(useSession().calls);
  const affiliates = useDashboardAffiliates(data, scope.impersonated);
  const events = useDashboardList(data, 'payment_events', query, scope.impersonated);
  const fees = useDashboardList(data, 'connection_fees', query, scope.impersonated);
  const claimedAffiliate = useAuthSelector((s) => selectClaims(s)?.affiliate_id ?? null);

  const request = useMemo<ViewRequest | null>(() => {
    if (!affiliates.data || !events.data || !fees.data) return null;
    return {
      events: events.data.id,
      fees: fees.data.id,
      affiliates: affiliates.data,
      affiliateFilter: affiliateId,
      range: { ...query, zone: range.start.zoneName, locale: range.start.locale },
      selectedDay,
    };
  }, [affiliates.data, events.data, fees.data, affiliateId, query, range, selectedDay]);
  const derived = useDashboardView(data, request);

  // The last dashboard of the same affiliate, shown while another range or day loads; another
  // affiliate's figures never stand under this one's heading.
  const current = derived.dashboard;
  const [previous, setPrevious] = useState<{ dashboard: Dashboard; view: string } | null>(null);
  if (current !== null && current !== previous?.dashboard) setPrevious({ dashboard: current, view });
  const dashboard = current ?? (previous?.view === view ? previous.dashboard : null);

  // "The dashboard shows the first error message among affiliates, payment events and fees",
  // once no retry is coming for it: while the first failure is retried, the page waits.
  const isFinal = useIsFinalError();
  const failure = [affiliates.error, events.error, fees.error].find((error) => error !== undefined);
  const message = failure !== undefined ? (isFinal(failure) ? errorText(failure) : null) : derived.error;

  const headingAffiliate = affiliateId ?? scope.impersonated ?? claimedAffiliate;
  const name = affiliates.data?.find((affiliate) => affiliate.id === headingAffiliate)?.name;
  const showAffiliates = (affiliates.data?.length ?? 0) > 1;

  const chooseAffiliate = (id: string | null) => {
    navigate(id === null ? '/' : `/affiliate/${encodeURIComponent(id)}`);
  };

  return (
    <section className="dashboard" aria-labelledby={headingId}>
      <div className="dashboard__header">
        <h1 id={headingId} className="dashboard__title">
          {name ? `${name} Sales Dashboard` : 'Sales Dashboard'}
        </h1>
        <div className="dashboard-toolbar">
          {showAffiliates && affiliates.data && (
            <AffiliateSelect affiliates={affiliates.data} selected={affiliateId} onChange={chooseAffiliate} />
          )}
          <DateRangeControls
            mode={mode}
            customStart={customStart}
            customEnd={customEnd}
            onMode={(next) => send({ type: 'RANGE.SELECT', mode: next })}
            onStart={(day) => send({ type: 'RANGE.CUSTOM_START', day })}
            onEnd={(day) => send({ type: 'RANGE.CUSTOM_END', day })}
          />
        </div>
      </div>
      <Alert message={message} />
      {message === null &&
        (dashboard === null ? (
          <Spinner label="Loading sales..." />
        ) : (
          <div className="dashboard__content" aria-busy={current === null}>
            {/* A new range or affiliate loads; a selected day is answered too soon to show a spinner. */}
            {current === null && request === null && (
              <div className="dashboard__updating">
                <Spinner label="Loading sales..." />
              </div>
            )}
            <section aria-label="Summary">
              <SummaryGrid stats={dashboard.stats} currency={env.currency} />
            </section>
            <ChartPanel
              dashboard={dashboard}
              mode={chartMode}
              selectedDay={selectedDay}
              currency={env.currency}
              onSelectMode={(next) => send({ type: 'CHART.SELECT', mode: next })}
              onToggleDay={(day) => send({ type: 'DAY.TOGGLE', day })}
              onClearDay={() => send({ type: 'DAY.CLEAR' })}
            />
            <DetailTables dashboard={dashboard} selectedDay={selectedDay} currency={env.currency} />
          </div>
        ))}
    </section>
  );
}

export default function DashboardPage({ affiliateId }: { affiliateId: string | null }) {
  return (
    <ServerDataProvider>
      <SalesDashboard affiliateId={affiliateId} />
    </ServerDataProvider>
  );
}
