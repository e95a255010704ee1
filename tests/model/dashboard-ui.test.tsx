// The model-based suite of the Sales Dashboard (see docs/testing.md): every path
// generated from the real dashboard machine (tests/model/dashboard-paths.ts, `npm run paths`),
// plus one for each sample event those leave out, and each event but the day's own taken with a
// day selected, run against the real page in a real session
// with the reference server in process (tests/model/dashboard-driver.tsx turns each event into what
// the user does, and checks each state's page). The last test measures what the paths that ran
// cover of the machine: all of it.
import { describe, it } from 'vitest';
import { dashboardNow, runOnDashboardDay } from '../utils/dashboard-day.ts';
import type { MachinePath } from './coverage.ts';
import { expectFullCoverage } from './expect-coverage.ts';
import { startDashboardDriver } from './dashboard-driver.tsx';
import { dashboardModel } from './dashboard-paths.ts';
import { generatePaths, pathTitle, suitePaths } from './paths.ts';

// The sample days and every test's clock: the dashboard tests' day.
const now = dashboardNow();
runOnDashboardDay();
const generated = generatePaths(dashboardModel(now));
// With CHART.SELECT 'pie', which has no control on the page: the driver skips that event.
const paths = suitePaths(generated);

describe('the dashboard page follows the dashboard machine', () => {
  /** The paths whose every step the page went through. */
  const ran: MachinePath[] = [];

  paths.forEach(({ id, path }) => {
    it(`${id}: ${pathTitle(path)}`, { timeout: 20_000 }, async () => {
      await (await startDashboardDriver()).run(path);
      ran.push(path);
    });
  });

  it('covers every state and transition of the dashboard machine with the paths that ran', () => {
    expectFullCoverage('dashboard', generated, ran);
  });
});
