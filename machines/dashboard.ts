// The dashboard's view state: the date mode, the selected day and the chart mode machines,
// run together so that a change of range or affiliate clears the selected day. States:
//   active   the three children run: dateRange, selectedDay, chartMode
import { sendTo, setup } from 'xstate';
import { chartModeMachine, type ChartModeEvent } from './chart-mode.ts';
import { dateRangeMachine, type DateRangeEvent } from './date-range.ts';
import { selectedDayMachine, type SelectedDayEvent } from './selected-day.ts';

export type DashboardEvent =
  | DateRangeEvent
  | SelectedDayEvent
  | ChartModeEvent
  /** The dashboard now shows another affiliate (or all). */
  | { type: 'AFFILIATE.CHANGED' };

export const dashboardMachine = setup({
  types: {
    events: {} as DashboardEvent,
    children: {} as { dateRange: 'dateRange'; selectedDay: 'selectedDay'; chartMode: 'chartMode' },
  },
  actors: {
    dateRange: dateRangeMachine,
    selectedDay: selectedDayMachine,
    chartMode: chartModeMachine,
  },
  actions: {
    forwardToDateRange: sendTo('dateRange', ({ event }) => event as DateRangeEvent),
    forwardToSelectedDay: sendTo('selectedDay', ({ event }) => event as SelectedDayEvent),
    forwardToChartMode: sendTo('chartMode', ({ event }) => event as ChartModeEvent),
    clearSelectedDay: sendTo('selectedDay', { type: 'DAY.CLEAR' }),
  },
}).createMachine({
  id: 'dashboard',
  invoke: [
    { id: 'dateRange', systemId: 'dateRange', src: 'dateRange' },
    { id: 'selectedDay', systemId: 'selectedDay', src: 'selectedDay' },
    { id: 'chartMode', systemId: 'chartMode', src: 'chartMode' },
  ],
  initial: 'active',
  states: {
    active: {
      on: {
        'RANGE.SELECT': { actions: ['forwardToDateRange', 'clearSelectedDay'] },
        'RANGE.CUSTOM_START': { actions: ['forwardToDateRange', 'clearSelectedDay'] },
        'RANGE.CUSTOM_END': { actions: ['forwardToDateRange', 'clearSelectedDay'] },
        'AFFILIATE.CHANGED': { actions: 'clearSelectedDay' },
        'DAY.TOGGLE': { actions: 'forwardToSelectedDay' },
        'DAY.CLEAR': { actions: 'forwardToSelectedDay' },
        'CHART.SELECT': { actions: 'forwardToChartMode' },
      },
    },
  },
});
