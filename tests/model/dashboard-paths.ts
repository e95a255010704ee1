// The dashboard's models: the date mode, the selected day and the chart mode machines on their
// own, and the dashboard machine that runs the three (machines/date-range.ts, selected-day.ts,
// chart-mode.ts, dashboard.ts). Each model is the real machine with sample events; `npm run paths`
// prints the paths generated from them, and the model-based suite (dashboard-ui.test.tsx) runs
// them against the real page.
//   dateRange     RANGE.SELECT with each of the four modes; RANGE.CUSTOM_START/END with a real
//                 day ('yyyy-MM-dd', as a date input gives it) and with '' (the input cleared)
//   selectedDay   DAY.TOGGLE with two different days; DAY.CLEAR (empty chart space)
//   chartMode     CHART.SELECT 'fees', 'sales', and 'pie', which the machine must reject
//   dashboard     all of the above and AFFILIATE.CHANGED. Its own state is a single 'active'
//                 with targetless transitions that forward to (and clear) the children, so its
//                 paths cover those transitions; the children's states are their own models'.
// The sample days sit relative to `now`, where tests/utils/dashboard-rows.ts puts real rows.
import { DateTime } from 'luxon';
import { chartModeMachine, type ChartModeEvent } from '../../machines/chart-mode.ts';
import { dashboardMachine, type DashboardEvent } from '../../machines/dashboard.ts';
import { dateRangeMachine, type DateMode, type DateRangeEvent } from '../../machines/date-range.ts';
import { selectedDayMachine, type SelectedDayEvent } from '../../machines/selected-day.ts';
import { recordInitial, recordStep, type MachinePath } from './coverage.ts';
import { generatePaths, noted, type MachineModel, type ModelPaths } from './paths.ts';

export const DATE_MODES: readonly DateMode[] = ['last30', 'current', 'previous', 'custom'];

/** The local day `days` before `now`'s, as 'yyyy-MM-dd'. */
export const dayBefore = (days: number, now: number = Date.now()): string =>
  DateTime.fromMillis(now).startOf('day').minus({ days }).toISODate() ?? '';

/**
 * The sample days: a custom range from 45 to 35 days ago (around a sale 40 days ago, before the
 * last 30 days), and two days of the last 30 with sales to select in the chart.
 */
export function dashboardSampleDays(now: number = Date.now()) {
  return {
    customStart: dayBefore(45, now),
    customEnd: dayBefore(35, now),
    firstDay: dayBefore(2, now),
    secondDay: dayBefore(5, now),
    /** Not a sample: the day the UI paths select in an incomplete custom range (the current month). */
    today: dayBefore(0, now),
  };
}

/** An invalid chart mode: "Chart selection must be fees or sales", so it changes nothing. */
export const INVALID_CHART_MODE = 'pie';

export function dateRangeEvents(now: number = Date.now()): DateRangeEvent[] {
  const days = dashboardSampleDays(now);
  return [
    ...DATE_MODES.map((mode): DateRangeEvent => ({ type: 'RANGE.SELECT', mode })),
    noted({ type: 'RANGE.CUSTOM_START', day: days.customStart }, `day "${days.customStart}" (45 days ago)`),
    noted({ type: 'RANGE.CUSTOM_START', day: '' }, 'day "" (cleared)'),
    noted({ type: 'RANGE.CUSTOM_END', day: days.customEnd }, `day "${days.customEnd}" (35 days ago)`),
    noted({ type: 'RANGE.CUSTOM_END', day: '' }, 'day "" (cleared)'),
  ];
}

export function selectedDayEvents(now: number = Date.now()): SelectedDayEvent[] {
  const days = dashboardSampleDays(now);
  return [
    noted({ type: 'DAY.TOGGLE', day: days.firstDay }, `day "${days.firstDay}" (2 days ago)`),
    noted({ type: 'DAY.TOGGLE', day: days.secondDay }, `day "${days.secondDay}" (5 days ago)`),
    noted({ type: 'DAY.CLEAR' }, 'empty chart space'),
  ];
}

export function chartModeEvents(): ChartModeEvent[] {
  return [
    { type: 'CHART.SELECT', mode: 'fees' },
    { type: 'CHART.SELECT', mode: 'sales' },
    noted({ type: 'CHART.SELECT', mode: INVALID_CHART_MODE }, `mode "${INVALID_CHART_MODE}" (invalid: changes nothing)`),
  ];
}

export function dashboardEvents(now: number = Date.now()): DashboardEvent[] {
  return [
    ...dateRangeEvents(now),
    ...selectedDayEvents(now),
    ...chartModeEvents(),
    noted({ type: 'AFFILIATE.CHANGED' }, 'another affiliate chosen'),
  ];
}

export function dateRangeModel(now: number = Date.now()): MachineModel {
  return { id: dateRangeMachine.id, machine: dateRangeMachine, input: undefined, events: dateRangeEvents(now) };
}

export function selectedDayModel(now: number = Date.now()): MachineModel {
  // Every simple path too (there are 5): they move the selection from one day to the other.
  return { id: selectedDayMachine.id, machine: selectedDayMachine, input: undefined, events: selectedDayEvents(now), simplePathLimit: 10 };
}

export function chartModeModel(): MachineModel {
  return { id: chartModeMachine.id, machine: chartModeMachine, input: undefined, events: chartModeEvents() };
}

export function dashboardModel(now: number = Date.now()): MachineModel {
  return { id: dashboardMachine.id, machine: dashboardMachine, input: undefined, events: dashboardEvents(now) };
}

/** The dashboard's four models, children first. */
export function dashboardModels(now: number = Date.now()): MachineModel[] {
  return [dateRangeModel(now), selectedDayModel(now), chartModeModel(), dashboardModel(now)];
}

export const dateRangePaths = (now: number = Date.now()): ModelPaths => generatePaths(dateRangeModel(now));
export const selectedDayPaths = (now: number = Date.now()): ModelPaths => generatePaths(selectedDayModel(now));
export const chartModePaths = (): ModelPaths => generatePaths(chartModeModel());
export const dashboardPaths = (now: number = Date.now()): ModelPaths => generatePaths(dashboardModel(now));

/**
 * The dashboard's paths as the UI suite runs them: each generated path (one step: one transition
 * of the dashboard machine) taken after a day is selected, so that whether the step clears the
 * day shows. A custom day (Start date, End date) can only be typed in a custom range, whose other
 * day is chosen first; the range is then incomplete (the current month), and today is selected.
 */
export function dashboardPathsWithDay(result: ModelPaths, now: number = Date.now()): MachinePath[] {
  const days = dashboardSampleDays(now);
  const toggle = (day: string): DashboardEvent => ({ type: 'DAY.TOGGLE', day });
  const setup = (event: DashboardEvent): DashboardEvent[] => {
    switch (event.type) {
      case 'RANGE.CUSTOM_START':
      case 'RANGE.CUSTOM_END': {
        if (event.day === '') throw new Error(`${event.type} with no day changes nothing after the other day alone`);
        const other: DashboardEvent =
          event.type === 'RANGE.CUSTOM_START' ? { type: 'RANGE.CUSTOM_END', day: days.customEnd } : { type: 'RANGE.CUSTOM_START', day: days.customStart };
        return [{ type: 'RANGE.SELECT', mode: 'custom' }, other, toggle(days.today)];
      }
      case 'DAY.TOGGLE':
        return [toggle(event.day === days.firstDay ? days.secondDay : days.firstDay)];
      default:
        return [toggle(days.firstDay)];
    }
  };
  const { machine, input } = result.model;
  return result.paths.map((path) => {
    const events = path.steps.slice(1).map((step) => step.event as DashboardEvent);
    const initial = recordInitial(machine, input).snapshot;
    const steps: MachinePath['steps'] = [{ event: { type: 'xstate.init' }, state: initial }];
    for (const event of [...setup(events[0]!), ...events]) {
      steps.push({ event, state: recordStep(machine, steps.at(-1)!.state, event).snapshot });
    }
    return { state: steps.at(-1)!.state, steps, weight: steps.length - 1 };
  });
}
