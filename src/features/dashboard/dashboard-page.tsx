// The Sales Dashboard: all affiliates on /, one on /affiliate/{id}. The view renders the dashboard
// machine's state (date mode, selected day, chart mode) and the data of the machine's range, which
// the dashboard's data service (in a Web Worker) loads and derives; SWR holds handles to it
// (src/api/dashboard-data.ts). The view sends what the user does and does no arithmetic.
// Each view (the affiliate viewed as, and the route's affiliate) has a dashboard of its own, keyed
// by it, so another affiliate's selected day and figures never show under this one's heading; the
// route and the header change the affiliate outside the dashboard. The view is the URL's query
// (use-view-url.ts): a dashboard starts in the URL's view; when the affiliate changed with the URL
// as it was (the header's 'View as Affiliate' on /) or to a URL without a query (the Dashboard
// tab), it starts where the last one was after AFFILIATE.CHANGED: the same range and chart mode,
// no day, and the URL follows. While another range or day loads, the view's last dashboard stays
// on screen. Once a range's figures are on screen, its previous period is loaded for each stat
// box's change (src/api/previous-period.ts). An affiliate's route waits for the affiliates: one
// that is not among the user's gets its heading and a line that says so, and no data call.
import { useMachine } from '@xstate/react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { Link, useLocation, useSearch } from 'wouter';
import { selectOwnAffiliate } from '../../../machines/auth.selectors.ts';
import {
  afterAffiliateChange,
  dashboardMachine,
  selectChartMode,
  selectCustomEnd,
  selectCustomStart,
  selectDateMode,
  selectIsRangeRefused,
  selectSelectedDay,
  selectView,
  type DashboardSnapshot,
} from '../../../machines/dashboard.ts';
import { ApiError, errorText } from '../../api/client.ts';
import {
  dashboardData,
  useDashboardAffiliates,
  useDashboardList,
  useDashboardView,
  type ShownView,
  type ViewRequest,
} from '../../api/dashboard-data.ts';
import { useStatChanges } from '../../api/previous-period.ts';
import { isFinalError } from '../../api/swr.ts';
import { useAuthSelector, useSession } from '../../session/session-context.tsx';
import { Alert } from '../../components/alert.tsx';
import { useDocumentTitle } from '../../components/document-title.ts';
import { focusIfLost } from '../../components/focus-if-lost.ts';
import { Spinner } from '../../components/spinner.tsx';
import { OFFLINE_TEXT, useOnline } from '../../components/use-online.ts';
import { env } from '../../config/env.ts';
import { dateRange, parseDay, toQuery } from '../../domain/dates.ts';
import type { DetailTableName } from '../../domain/detail-columns.ts';
import { parseView, viewHref, type DashboardView } from '../../domain/view-query.ts';
import { ChartPanel } from './chart-panel.tsx';
import { AffiliateSelect, DateRangeControls } from './dashboard-controls.tsx';
import { ServerDataProvider, useApiScope } from '../../session/server-data.tsx';
import { DetailTables } from './detail-tables.tsx';
import { SummaryGrid } from './summary-grid.tsx';
import { useToday } from './use-today.ts';
import { useViewUrl } from './use-view-url.ts';
import './dashboard.css';

/**
 * What one view's dashboard hands on to the next: the machine's last state, and whether the
 * Affiliate selector had the focus when it chose the next view.
 */
function createHandOver() {
  let last: DashboardSnapshot | undefined;
  /** The URL (path and query) the last view showed. */
  let lastUrl: string | undefined;
  let refocusAffiliate = false;
  return {
    /** The state the next view's machine starts in at `url`: none for the first view, or for a URL with a view of its own. */
    start: (url: string) => (last === undefined || (url !== lastUrl && !url.endsWith('?')) ? undefined : afterAffiliateChange(last)),
    /** The view shows `url`. */
    at: (url: string) => {
      lastUrl = url;
    },
    /** Keeps the machine's state as it changes, until the view's dashboard goes. */
    follow(actor: ActorRefFrom<typeof dashboardMachine>) {
      last = actor.getSnapshot();
      const subscription = actor.subscribe((snapshot) => {
        last = snapshot;
      });
      return () => subscription.unsubscribe();
    },
    /** The Affiliate selector chose another view: its successor gets the focus. */
    affiliateChosen: () => {
      refocusAffiliate = true;
    },
    /** A ref for the Affiliate selector. */
    affiliateSelect: (control: HTMLElement | null) => {
      if (control === null || !refocusAffiliate) return;
      refocusAffiliate = false;
      control.focus();
    },
  };
}

type HandOver = ReturnType<typeof createHandOver>;

/** Whether the dashboard on screen is of the request's range and affiliate (another day of them, or their lists fetched anew). */
const sameRange = (request: ViewRequest, shown: ShownView | null) =>
  shown !== null &&
  shown.request.range.start === request.range.start &&
  shown.request.range.end === request.range.end &&
  shown.request.affiliateFilter === request.affiliateFilter;

function SalesDashboard({ affiliateId, handOver }: { affiliateId: string | null; handOver: HandOver }) {
  const [path, navigate] = useLocation();
  const search = useSearch();
  const today = useToday();
  const url = `${path}?${search}`;
  const [snapshot, send, actor] = useMachine(dashboardMachine, {
    snapshot: handOver.start(url),
    input: { view: parseView(search, today) },
  });
  useEffect(() => handOver.follow(actor), [handOver, actor]);
  useEffect(() => handOver.at(url), [handOver, url]);
  const view = selectView(snapshot);
  useViewUrl(
    view,
    useCallback((next: DashboardView) => send({ type: 'VIEW.SHOW', view: next }), [send]),
    today,
  );
  const mode = selectDateMode(snapshot);
  const customStart = selectCustomStart(snapshot);
  const customEnd = selectCustomEnd(snapshot);
  const selectedDay = selectSelectedDay(snapshot);
  const chartMode = selectChartMode(snapshot);
  const headingId = useId();

  const range = useMemo(
    () => dateRange(mode, { customStart, customEnd, now: parseDay(today) ?? undefined }),
    [mode, customStart, customEnd, today],
  );
  const query = useMemo(() => toQuery(range), [range]);
  const scope = useApiScope();

  const data = dashboardData(useSession().calls);
  const affiliates = useDashboardAffiliates(data, scope.impersonated);
  // An affiliate's route shows its data once the affiliates list it: no call goes out for one
  // that is not among the user's, which the page says instead.
  const known = affiliateId === null || (affiliates.data?.some((affiliate) => affiliate.id === affiliateId) ?? false);
  const unknownAffiliate = affiliateId !== null && affiliates.data !== undefined && !known;
  const events = useDashboardList(data, 'payment_events', query, scope.impersonated, known);
  const fees = useDashboardList(data, 'connection_fees', query, scope.impersonated, known);
  const claimedAffiliate = useAuthSelector(selectOwnAffiliate);

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

  const current = derived.dashboard;
  const dashboard = derived.shown?.dashboard ?? null;
  // The CSV files of the tables on screen, once they are the request's own.
  const csv = useMemo(
    () => (request !== null && current !== null ? (table: DetailTableName) => data.csv({ ...request, table }) : null),
    [data, request, current],
  );

  // Each stat box's change belongs to the figures on screen: it is asked for the request they
  // were derived from (the last one's while the next loads), only once they are there, as the
  // affiliate viewed as that this dashboard is keyed by.
  const changes = useStatChanges(data, derived.shown, scope.impersonated);

  // The first error among affiliates, payment events and fees shows, once no retry is coming
  // for it: while the first failure is retried (on its own, or on Retry), the page waits. Offline,
  // a call that got no answer is no error: the figures on screen stay, a line says why they do
  // not change, and every call is made again once the connection is back.
  const calls = [affiliates, events, fees];
  const online = useOnline();
  const failure = calls.map((call) => call.error).find((error) => error !== undefined);
  const retrying = calls.some((call) => call.error !== undefined && call.isValidating);
  const unanswered = !online && failure instanceof ApiError && failure.kind === 'network';
  const message = failure !== undefined ? (isFinalError(failure) && !retrying && !unanswered ? errorText(failure) : null) : derived.error;
  const wasOnline = useRef(online);
  const [refreshAffiliates, refreshEvents, refreshFees] = [affiliates.mutate, events.mutate, fees.mutate];
  useEffect(() => {
    const reconnected = online && !wasOnline.current;
    wasOnline.current = online;
    if (reconnected) for (const refresh of [refreshAffiliates, refreshEvents, refreshFees]) void refresh();
  }, [online, refreshAffiliates, refreshEvents, refreshFees]);
  // Retry asks the calls that failed for good again. The button goes with the error line while
  // they run: the heading takes the focus.
  const retry = () => {
    document.getElementById(headingId)?.focus();
    for (const call of calls) if (call.error !== undefined) void call.mutate();
  };

  const headingAffiliate = affiliateId ?? scope.impersonated ?? claimedAffiliate;
  const name = affiliates.data?.find((affiliate) => affiliate.id === headingAffiliate)?.name;
  const showAffiliates = (affiliates.data?.length ?? 0) > 1;

  const chooseAffiliate = (id: string | null) => {
    handOver.affiliateChosen();
    // Another affiliate keeps the range and chart; the day goes.
    navigate(viewHref(id === null ? '/' : `/affiliate/${encodeURIComponent(id)}`, { ...view, day: null }));
  };

  // A new range loads (its lists, then its figures): the last range's stay, faded under a loading
  // line. Another day of the range is answered too soon for either.
  const updating = current === null && (request === null || !sameRange(request, derived.shown));

  const title = name ? `${name} Sales Dashboard` : 'Sales Dashboard';
  useDocumentTitle(title);

  return (
    <section className="dashboard" aria-labelledby={headingId}>
      <div className="dashboard__header">
        {/* Focus lost with the screen before (a sign-in's code field) starts here, at the top. */}
        <h1 id={headingId} className="dashboard__title" ref={focusIfLost} tabIndex={-1}>
          {title}
        </h1>
        {known && (
          <div className="dashboard-toolbar">
            {showAffiliates && affiliates.data && (
              <AffiliateSelect
                affiliates={affiliates.data}
                selected={affiliateId}
                onChange={chooseAffiliate}
                selectRef={handOver.affiliateSelect}
              />
            )}
            <DateRangeControls
              mode={mode}
              customStart={customStart}
              customEnd={customEnd}
              onMode={(next) => send({ type: 'RANGE.SELECT', mode: next })}
              onStart={(day) => send({ type: 'RANGE.CUSTOM_START', day })}
              onEnd={(day) => send({ type: 'RANGE.CUSTOM_END', day })}
              refused={selectIsRangeRefused(snapshot)}
              zone={range.start.zoneName}
            />
          </div>
        )}
      </div>
      {!online && (
        <p role="status" className="notice">
          {OFFLINE_TEXT}
        </p>
      )}
      {unknownAffiliate && (
        <p className="dashboard__unknown">
          <span>{`There is no affiliate ${affiliateId} among yours.`}</span> <Link href="/">Show all affiliates</Link>
        </p>
      )}
      <Alert message={message} />
      {message !== null && failure !== undefined && (
        <div className="dashboard__retry">
          <button type="button" onClick={retry}>
            Retry
          </button>
        </div>
      )}
      {message === null &&
        !unknownAffiliate &&
        (dashboard === null ? (
          <Spinner label="Loading sales..." />
        ) : (
          <div className={updating ? 'dashboard__content dashboard__content--updating' : 'dashboard__content'} aria-busy={current === null}>
            {updating && (
              <div className="dashboard__updating">
                <Spinner label="Loading sales..." />
              </div>
            )}
            <section aria-label="Summary">
              <SummaryGrid stats={dashboard.stats} changes={changes} currency={env.currency} />
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
            <DetailTables
              dashboard={dashboard}
              selectedDay={selectedDay}
              currency={env.currency}
              csv={csv}
              onClearDay={() => send({ type: 'DAY.CLEAR' })}
            />
          </div>
        ))}
    </section>
  );
}

export default function DashboardPage({ affiliateId }: { affiliateId: string | null }) {
  const { impersonated } = useApiScope();
  const [handOver] = useState(createHandOver);
  return (
    <ServerDataProvider>
      <SalesDashboard key={`${impersonated ?? ''}/${affiliateId ?? ''}`} affiliateId={affiliateId} handOver={handOver} />
    </ServerDataProvider>
  );
}
