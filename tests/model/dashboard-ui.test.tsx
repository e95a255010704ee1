// The model-based suite of the Sales Dashboard (style.md, "Model-based tests"): every path
// generated from the real date mode, selected day and chart mode machines
// (tests/model/dashboard-paths.ts, `npm run paths`), plus one for each sample event those leave
// out, and the dashboard machine's own paths taken with a day selected, run against the real page
// in a real session with the reference server in process (tests/model/dashboard-driver.tsx turns
// each event into what the user does, and checks each state's page). The last tests measure what
// the paths that ran cover of each machine: all of it.
import { describe, expect, it } from 'vitest';
import { formatCoverage, measureCoverage, type MachinePath } from './coverage.ts';
import { startDashboardDriver, type DashboardModelId } from './dashboard-driver.tsx';
import { chartModeModel, dashboardModel, dashboardPathsWithDay, dateRangeModel, selectedDayModel } from './dashboard-paths.ts';
import { withEverySampleSent } from './every-sample.ts';
import { generatePaths, pathTitle, type MachineModel } from './paths.ts';

const now = Date.now();

const suites: { id: DashboardModelId; model: MachineModel; paths: MachinePath[] }[] = [
  { id: 'dateRange', model: dateRangeModel(now), paths: withEverySampleSent(generatePaths(dateRangeModel(now))) },
  { id: 'selectedDay', model: selectedDayModel(now), paths: withEverySampleSent(generatePaths(selectedDayModel(now))) },
  // With CHART.SELECT 'pie', which has no control on the page: the driver skips that event.
  { id: 'chartMode', model: chartModeModel(), paths: withEverySampleSent(generatePaths(chartModeModel())) },
  { id: 'dashboard', model: dashboardModel(now), paths: dashboardPathsWithDay(generatePaths(dashboardModel(now)), now) },
];

describe.each(suites)('the dashboard page follows the $id machine', ({ id, model, paths }) => {
  /** The paths whose every step the page went through. */
  const ran: MachinePath[] = [];

  paths.forEach((path, index) => {
    it(`${pathTitle(path)} #${index + 1}`, { timeout: 20_000 }, async () => {
      await (await startDashboardDriver(id)).run(path);
      ran.push(path);
    });
  });

  it(`covers every state and transition of the ${id} machine with the paths that ran`, () => {
    const all = generatePaths(model).coverage;
    const covered = measureCoverage(model.machine, ran, model.input);
    process.stdout.write(`${id} UI: ${formatCoverage(ran.length, covered)}\n`);
    expect(covered.states.missing).toEqual([]);
    expect(covered.transitions.missing).toEqual([]);
    expect(covered.states.covered).toBe(all.states.total);
    expect(covered.transitions.covered).toBe(all.transitions.total);
  });
});
