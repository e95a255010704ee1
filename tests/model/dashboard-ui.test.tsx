// The model-based suite of the Sales Dashboard (style.md, "Model-based tests"): every path
// generated from the real date mode, selected day and chart mode machines
// (tests/model/dashboard-paths.ts, `npm run paths`), plus one for each sample event those leave
// out, and the dashboard machine's own paths taken with a day selected, run against the real page
// in a real session with the reference server in process (tests/model/dashboard-driver.tsx turns
// each event into what the user does, and checks each state's page). The last tests measure what
// the paths that ran cover of each machine: all of it.
import { describe, it } from 'vitest';
import type { MachinePath } from './coverage.ts';
import { expectFullCoverage } from './expect-coverage.ts';
import { startDashboardDriver, type DashboardModelId } from './dashboard-driver.tsx';
import { chartModeModel, dashboardModel, dashboardPathsWithDay, dateRangeModel, selectedDayModel } from './dashboard-paths.ts';
import { withEverySampleSent } from './every-sample.ts';
import { generatePaths, pathTitle, type ModelPaths } from './paths.ts';

const now = Date.now();

const dateRange = generatePaths(dateRangeModel(now));
const selectedDay = generatePaths(selectedDayModel(now));
const chartMode = generatePaths(chartModeModel());
const dashboard = generatePaths(dashboardModel(now));

const suites: { id: DashboardModelId; generated: ModelPaths; paths: MachinePath[] }[] = [
  { id: 'dateRange', generated: dateRange, paths: withEverySampleSent(dateRange) },
  { id: 'selectedDay', generated: selectedDay, paths: withEverySampleSent(selectedDay) },
  // With CHART.SELECT 'pie', which has no control on the page: the driver skips that event.
  { id: 'chartMode', generated: chartMode, paths: withEverySampleSent(chartMode) },
  { id: 'dashboard', generated: dashboard, paths: dashboardPathsWithDay(dashboard, now) },
];

describe.each(suites)('the dashboard page follows the $id machine', ({ id, generated, paths }) => {
  /** The paths whose every step the page went through. */
  const ran: MachinePath[] = [];

  paths.forEach((path, index) => {
    it(`${pathTitle(path)} #${index + 1}`, { timeout: 20_000 }, async () => {
      await (await startDashboardDriver(id)).run(path);
      ran.push(path);
    });
  });

  it(`covers every state and transition of the ${id} machine with the paths that ran`, () => {
    expectFullCoverage(id, generated, ran);
  });
});
