// The day the dashboard tests run on, from its midday in the zone days are counted in (luxon's
// default zone), the clock running on from there: the page, the test server and the rows placed
// relative to today (dashboard-rows.ts) read it. The ranges a test counts then lie as they were
// meant to on any day, at any hour, in any zone: no test crosses midnight between what the page
// asked for and what it expects, the fixtures' sales at fixed dates (api-server.ts, November 2026)
// fall in none of them, and the two months before the day have no change of daylight saving time
// in either hemisphere.
import { DateTime } from 'luxon';
import { afterEach, beforeEach, vi } from 'vitest';

/** Midday of the dashboard tests' day in luxon's default zone, in milliseconds since the epoch. */
export const dashboardNow = (): number => DateTime.fromISO('2027-02-15T12:00:00').toMillis();

/** Runs each test of the calling file from dashboardNow(), its Date running on in real time. */
export function runOnDashboardDay(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(dashboardNow());
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
