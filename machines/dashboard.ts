// The Sales Dashboard's view state, three regions side by side:
//   range   the date mode: last30 (Last 30 days, the default), current (Current Month), previous
//           (Previous Month), custom (Custom Date Range): incomplete while a day is missing (the
//           range is then the current month), refused while the two days are beyond a custom
//           range's limits (731 days at most, from 2000-01-01 on: the current month again, and
//           the view says why), complete once start and end are chosen within them
//   day     the selected day: none (the tables show the whole range) or selected (one day);
//           clicking its bar again or empty chart space clears it, another bar selects that day,
//           and a change of range or affiliate clears it
//   chart   fees (Fees Chart, the default) or sales (Sales Chart); any other choice changes nothing
// The range itself is derived from the state by src/domain/dates.ts (dateRange).
// A view from the URL (VIEW.SHOW, checked by src/domain/view-query.ts) sets all three at once; the
// machine starts in the view it is given as input (the defaults without one).
import { and, assertEvent, assign, raise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import {
  CHART_MODES,
  DATE_MODES,
  DEFAULT_VIEW,
  isCustomRangeAllowed,
  type ChartMode,
  type DashboardView,
  type DateMode,
} from '../src/domain/view-query.ts';

export type { ChartMode } from '../src/domain/view-query.ts';

export interface DashboardContext {
  /** The custom mode's days, 'yyyy-MM-dd' as a date input gives them; '' while not chosen. */
  customStart: string;
  customEnd: string;
  /** The selected local day, 'yyyy-MM-dd'. */
  day: string | null;
}

export type DashboardEvent =
  | { type: 'RANGE.SELECT'; mode: DateMode }
  | { type: 'RANGE.CUSTOM_START'; day: string }
  | { type: 'RANGE.CUSTOM_END'; day: string }
  | { type: 'DAY.TOGGLE'; day: string }
  /** Empty chart space was clicked. */
  | { type: 'DAY.CLEAR' }
  | { type: 'CHART.SELECT'; mode: string }
  /** The dashboard now shows another affiliate (or all). */
  | { type: 'AFFILIATE.CHANGED' }
  /** The URL asks for this view (a link opened, Back or Forward). */
  | { type: 'VIEW.SHOW'; view: DashboardView };

export interface DashboardMachineInput {
  /** The view to start in; the defaults without one. */
  view?: DashboardView;
}

const isDay = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day);
/** A custom day as the range keeps it: '' unless a 'yyyy-MM-dd' day. */
const customDay = (day: string) => (isDay(day) ? day : '');
/** The transitions to the date mode, or the chart, that an event asks for. */
const toMode = (mode: DateMode) => ({ guard: { type: 'isMode', params: { mode } }, target: `.${mode}` }) as const;
const toChart = (chart: ChartMode) => ({ guard: { type: 'isChart', params: { chart } }, target: `.${chart}` }) as const;

export const dashboardMachine = setup({
  types: {
    context: {} as DashboardContext,
    events: {} as DashboardEvent,
  },
  guards: {
    /** The date mode asked for, by the date range's selector or by a view, is `mode`. */
    isMode: ({ event }, { mode }: { mode: DateMode }) =>
      (event.type === 'RANGE.SELECT' ? event.mode : event.type === 'VIEW.SHOW' ? event.view.mode : null) === mode,
    /** The chart asked for, by the chart's selector or by a view, is `chart`. */
    isChart: ({ event }, { chart }: { chart: ChartMode }) =>
      (event.type === 'CHART.SELECT' ? event.mode : event.type === 'VIEW.SHOW' ? event.view.chart : null) === chart,
    hasBothDays: ({ context }) => isDay(context.customStart) && isDay(context.customEnd),
    isWithinLimits: ({ context }) => isCustomRangeAllowed(context.customStart, context.customEnd),
    isOtherCustomDay: ({ context, event }) =>
      (event.type === 'RANGE.CUSTOM_START' && customDay(event.day) !== context.customStart) ||
      (event.type === 'RANGE.CUSTOM_END' && customDay(event.day) !== context.customEnd),
    isSelectedDay: ({ context, event }) => event.type === 'DAY.TOGGLE' && event.day === context.day,
    hasNoDay: ({ context }) => context.day === null,
    viewHasDay: ({ event }) => event.type === 'VIEW.SHOW' && event.view.day !== null,
  },
  actions: {
    setCustomDay: assign(({ event }) => {
      assertEvent(event, ['RANGE.CUSTOM_START', 'RANGE.CUSTOM_END']);
      return event.type === 'RANGE.CUSTOM_START' ? { customStart: customDay(event.day) } : { customEnd: customDay(event.day) };
    }),
    selectDay: assign(({ event }) => {
      assertEvent(event, 'DAY.TOGGLE');
      return { day: event.day };
    }),
    clearDay: assign({ day: null }),
    showCustomDays: assign(({ event }) => {
      assertEvent(event, 'VIEW.SHOW');
      return { customStart: customDay(event.view.start), customEnd: customDay(event.view.end) };
    }),
    showDay: assign(({ event }) => {
      assertEvent(event, 'VIEW.SHOW');
      return { day: event.view.day };
    }),
    // On start the event is xstate.init, which carries the input; its type (optional, a
    // DashboardMachineInput or none) is more than setup's types can say.
    showStartView: raise(({ event }) => ({
      type: 'VIEW.SHOW' as const,
      view: (event as { input?: DashboardMachineInput }).input?.view ?? DEFAULT_VIEW,
    })),
  },
}).createMachine({
  id: 'dashboard',
  context: { customStart: '', customEnd: '', day: null },
  type: 'parallel',
  entry: 'showStartView',
  states: {
    range: {
      initial: 'last30',
      on: {
        'RANGE.SELECT': DATE_MODES.map(toMode),
        // The custom days are checked again: the view may bring other ones.
        'VIEW.SHOW': [toMode('last30'), toMode('current'), toMode('previous'), { target: '.custom.checking', actions: 'showCustomDays' }],
      },
      states: {
        last30: {},
        current: {},
        previous: {},
        custom: {
          initial: 'checking',
          // Another custom day changes the range: it clears the selected day (the day region
          // follows). The day it already has changes nothing.
          on: {
            'RANGE.CUSTOM_START': { guard: 'isOtherCustomDay', target: '.checking', actions: ['setCustomDay', 'clearDay'] },
            'RANGE.CUSTOM_END': { guard: 'isOtherCustomDay', target: '.checking', actions: ['setCustomDay', 'clearDay'] },
          },
          states: {
            checking: {
              always: [
                { guard: and(['hasBothDays', 'isWithinLimits']), target: 'complete' },
                { guard: 'hasBothDays', target: 'refused' },
                { target: 'incomplete' },
              ],
            },
            incomplete: {},
            refused: {},
            complete: {},
          },
        },
      },
    },
    day: {
      initial: 'none',
      on: {
        'VIEW.SHOW': [
          { guard: 'viewHasDay', target: '.selected', actions: 'showDay' },
          { target: '.none', actions: 'clearDay' },
        ],
      },
      states: {
        none: {
          on: { 'DAY.TOGGLE': { target: 'selected', actions: 'selectDay' } },
        },
        selected: {
          // The range region cleared the day (another custom day).
          always: { guard: 'hasNoDay', target: 'none' },
          on: {
            'DAY.TOGGLE': [
              { guard: 'isSelectedDay', target: 'none', actions: 'clearDay' },
              { target: 'selected', actions: 'selectDay' },
            ],
            'DAY.CLEAR': { target: 'none', actions: 'clearDay' },
            // A change of range or of affiliate clears the day (custom days: see the range region).
            'RANGE.SELECT': { target: 'none', actions: 'clearDay' },
            'AFFILIATE.CHANGED': { target: 'none', actions: 'clearDay' },
          },
        },
      },
    },
    chart: {
      initial: 'fees',
      on: {
        'CHART.SELECT': CHART_MODES.map(toChart),
        'VIEW.SHOW': [toChart('sales'), { target: '.fees' }],
      },
      states: {
        fees: {},
        sales: {},
      },
    },
  },
});

export type DashboardSnapshot = SnapshotFrom<typeof dashboardMachine>;
/** The page's dashboard machine, as its views get it. */
export type DashboardActor = ActorRefFrom<typeof dashboardMachine>;

/** The date mode the range region is in. */
export const selectDateMode = (snapshot: DashboardSnapshot): DateMode =>
  DATE_MODES.find((mode) => snapshot.matches({ range: mode })) ?? 'last30';

export const selectChartMode = (snapshot: DashboardSnapshot): ChartMode => (snapshot.matches({ chart: 'sales' }) ? 'sales' : 'fees');

export const selectSelectedDay = (snapshot: DashboardSnapshot): string | null => snapshot.context.day;
/** The custom days as chosen, refused ones too: what the date inputs hold. */
export const selectCustomStart = (snapshot: DashboardSnapshot): string => snapshot.context.customStart;
export const selectCustomEnd = (snapshot: DashboardSnapshot): string => snapshot.context.customEnd;
/** The custom days chosen are beyond a custom range's limits: the current month shows, and the view says why. */
export const selectIsRangeRefused = (snapshot: DashboardSnapshot): boolean => snapshot.matches({ range: { custom: 'refused' } });

/** The view the machine shows, as the URL keeps it (custom days only in custom mode, and only within its limits). */
export function selectView(snapshot: DashboardSnapshot): DashboardView {
  const mode = selectDateMode(snapshot);
  const custom = mode === 'custom' && !selectIsRangeRefused(snapshot);
  return {
    mode,
    start: custom ? snapshot.context.customStart : '',
    end: custom ? snapshot.context.customEnd : '',
    day: snapshot.context.day,
    chart: selectChartMode(snapshot),
  };
}
