// The dashboard's model: the real dashboard machine (machines/dashboard.ts, its range, day and
// chart regions) with sample events; `npm run paths` prints the paths generated from it, and the
// model-based suite (dashboard-ui.test.tsx) runs them against the real page.
//   RANGE.SELECT        each of the four modes
//   RANGE.CUSTOM_START  a real day ('yyyy-MM-dd', as a date input gives it) and '' (the input
//   RANGE.CUSTOM_END    cleared); a start before 2000-01-01, which makes the range too long
//   DAY.TOGGLE          two different days; DAY.CLEAR (empty chart space)
//   CHART.SELECT        'fees', 'sales', and 'pie', which the machine must reject
//   AFFILIATE.CHANGED   another affiliate chosen
//   VIEW.SHOW           the URL names a view (a link, Back, Forward): a custom range with a day
//                       and the Sales Chart, Previous Month, Current Month with today and the
//                       Sales Chart, Last 30 days with 2 days ago
// The sample days sit relative to `now`, where tests/utils/dashboard-rows.ts and the model driver
// put real rows.
import { DateTime } from 'luxon';
import { dashboardMachine, type DashboardEvent } from '../../machines/dashboard.ts';
import { DATE_MODES } from '../../src/domain/dates.ts';
import { recordInitial, recordStep, type MachinePath } from './coverage.ts';
import { withEverySampleSent } from './every-sample.ts';
import { generatePaths, noted, type MachineModel, type ModelPaths } from './paths.ts';

/** The local day `days` before `now`'s, as 'yyyy-MM-dd'. */
export const dayBefore = (days: number, now: number = Date.now()): string =>
  DateTime.fromMillis(now).startOf('day').minus({ days }).toISODate() ?? '';

/**
 * The sample days: a custom range from 45 to 35 days ago (around a sale 40 days ago, before the
 * last 30 days), and two days with sales to select in the chart: today, which every range but
 * Previous Month shows (an incomplete custom range is the current month), and 2 days ago.
 */
export function dashboardSampleDays(now: number = Date.now()) {
  return {
    customStart: dayBefore(45, now),
    customEnd: dayBefore(35, now),
    firstDay: dayBefore(0, now),
    secondDay: dayBefore(2, now),
    /** A day with a sale inside the custom range. */
    customDay: dayBefore(40, now),
    /** A start before the earliest a custom range may have (and so over 731 days before any end now). */
    tooEarly: '1999-12-31',
  };
}

/** An invalid chart mode: "Chart selection must be fees or sales", so it changes nothing. */
export const INVALID_CHART_MODE = 'pie';

export function dashboardEvents(now: number = Date.now()): DashboardEvent[] {
  const days = dashboardSampleDays(now);
  return [
    ...DATE_MODES.map((mode): DashboardEvent => ({ type: 'RANGE.SELECT', mode })),
    noted({ type: 'RANGE.CUSTOM_START', day: days.customStart }, `day "${days.customStart}" (45 days ago)`),
    noted({ type: 'RANGE.CUSTOM_START', day: '' }, 'day "" (cleared)'),
    noted({ type: 'RANGE.CUSTOM_START', day: days.tooEarly }, `day "${days.tooEarly}" (before 2000-01-01)`),
    noted({ type: 'RANGE.CUSTOM_END', day: days.customEnd }, `day "${days.customEnd}" (35 days ago)`),
    noted({ type: 'RANGE.CUSTOM_END', day: '' }, 'day "" (cleared)'),
    noted({ type: 'DAY.TOGGLE', day: days.firstDay }, `day "${days.firstDay}" (today)`),
    noted({ type: 'DAY.TOGGLE', day: days.secondDay }, `day "${days.secondDay}" (2 days ago)`),
    noted({ type: 'DAY.CLEAR' }, 'empty chart space'),
    { type: 'CHART.SELECT', mode: 'fees' },
    { type: 'CHART.SELECT', mode: 'sales' },
    noted({ type: 'CHART.SELECT', mode: INVALID_CHART_MODE }, `mode "${INVALID_CHART_MODE}" (invalid: changes nothing)`),
    noted({ type: 'AFFILIATE.CHANGED' }, 'another affiliate chosen'),
    noted(
      { type: 'VIEW.SHOW', view: { mode: 'custom', start: days.customStart, end: days.customEnd, day: days.customDay, chart: 'sales' } },
      `URL: the custom range, day "${days.customDay}" (40 days ago), Sales Chart`,
    ),
    noted({ type: 'VIEW.SHOW', view: { mode: 'previous', start: '', end: '', day: null, chart: 'fees' } }, 'URL: Previous Month'),
    noted(
      { type: 'VIEW.SHOW', view: { mode: 'current', start: '', end: '', day: days.firstDay, chart: 'sales' } },
      `URL: Current Month, day "${days.firstDay}" (today), Sales Chart`,
    ),
    noted(
      { type: 'VIEW.SHOW', view: { mode: 'last30', start: '', end: '', day: days.secondDay, chart: 'fees' } },
      `URL: Last 30 days, day "${days.secondDay}" (2 days ago)`,
    ),
  ];
}

/**
 * The model: the real machine and the events above. The UI suite also sends every sample the
 * generated paths leave out, and takes each event with a day selected (dashboardPathsWithDay).
 */
export function dashboardModel(now: number = Date.now()): MachineModel {
  return {
    id: dashboardMachine.id,
    machine: dashboardMachine,
    input: undefined,
    events: dashboardEvents(now),
    extraPaths: (generated) => [...withEverySampleSent(generated).slice(generated.paths.length), ...dashboardPathsWithDay(now)],
  };
}

export const dashboardPaths = (now: number = Date.now()): ModelPaths => generatePaths(dashboardModel(now));

/**
 * One more path for each sample event that is not about the day itself, taken with a day selected,
 * so that whether the event clears the day shows on the page (the generated paths take some of
 * them with no day). A custom day can only be typed in a custom range, whose other day is chosen
 * first; the range is then incomplete (the current month), and today is selected.
 */
export function dashboardPathsWithDay(now: number = Date.now()): MachinePath[] {
  const model = dashboardModel(now);
  const days = dashboardSampleDays(now);
  const toggle: DashboardEvent = { type: 'DAY.TOGGLE', day: days.firstDay };
  const withDay = (event: DashboardEvent): DashboardEvent[] | null => {
    switch (event.type) {
      case 'DAY.TOGGLE':
      case 'DAY.CLEAR':
        return null;
      case 'VIEW.SHOW':
        // A view with a day of its own shows the same whether a day was selected or not.
        return event.view.day === null ? [toggle, event] : null;
      case 'RANGE.CUSTOM_START':
      case 'RANGE.CUSTOM_END': {
        if (event.day === '') return null;
        const other: DashboardEvent =
          event.type === 'RANGE.CUSTOM_START'
            ? { type: 'RANGE.CUSTOM_END', day: days.customEnd }
            : { type: 'RANGE.CUSTOM_START', day: days.customStart };
        return [{ type: 'RANGE.SELECT', mode: 'custom' }, other, toggle, event];
      }
      default:
        return [toggle, event];
    }
  };
  return model.events.flatMap((event) => {
    const events = withDay(event as DashboardEvent);
    if (events === null) return [];
    const steps: MachinePath['steps'] = [{ event: { type: 'xstate.init' }, state: recordInitial(model.machine, model.input).snapshot }];
    for (const next of events) steps.push({ event: next, state: recordStep(model.machine, steps.at(-1)!.state, next).snapshot });
    return [{ state: steps.at(-1)!.state, steps, weight: steps.length - 1 }];
  });
}
