// Replays a path of the dashboard machine in Chromium (scripts/paths-run.ts), as the jsdom driver
// (tests/model/dashboard-driver.tsx) does, with the same words (tests/model/dashboard-words.ts):
// signed in as the account with an authenticator app (an affiliate with children and platform
// sales), each event is what the user does on the Sales Dashboard, and after each the page must
// show the machine's state: the range in 'Date range' (and the custom days), the tables' headings
// for the selected day and its pressed bars, the chart shown, and the view in the address. On the
// run's own server a sale is placed on each day the path selects, so that its bar is there.
import type { Page } from 'playwright-core';
import { createActor, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { dashboardMachine, selectView, type DashboardEvent } from '../machines/dashboard.ts';
import { serialiseView, viewHref } from '../src/domain/view-query.ts';
import type { MachinePath } from '../tests/model/coverage.ts';
import { barDay, dashboardControls, dashboardShowsOf, dashboardTexts, dashboardWords } from '../tests/model/dashboard-words.ts';
import type { BrowserRun } from './paths-browser-auth.ts';
import {
  apiSignIn,
  FIRST_SCREEN_TIMEOUT_MS,
  followLink,
  needAccount,
  SCREEN_TIMEOUT_MS,
  StepSkipped,
  storeFromOtherTab,
  until,
  type Target,
} from './paths-browser.ts';

const c = dashboardControls;

/** The days the path selects a bar of. */
function selectedDays(path: MachinePath): string[] {
  const days = path.steps.flatMap(({ event, state }) => {
    const toggled = (event as DashboardEvent).type === 'DAY.TOGGLE' ? [(event as Extract<DashboardEvent, { type: 'DAY.TOGGLE' }>).day] : [];
    const day = (state.context as { day: string | null }).day;
    return day === null ? toggled : [...toggled, day];
  });
  return [...new Set(days)];
}

/** A direct sale of the affiliate at the start of each day (the run's own server: its database). */
function placeSales(target: Target, affiliateId: string, days: readonly string[]) {
  if (!target.own) return;
  const insert = target.own.db.prepare(
    'INSERT INTO payment_events (id, created, amount, affiliate_id, commission_pc, product, policies) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  days.forEach((day, index) => {
    const policies = [{ policy_number: `TP-PATHS-${index}`, travelers: [{ first_name: 'Pat', last_name: 'Hedges' }] }];
    insert.run(
      9_000_000 + index,
      new Date(`${day}T00:00:00`).toISOString(),
      '64.00',
      affiliateId,
      '10.00',
      'Single Trip',
      JSON.stringify(policies),
    );
  });
}

const bars = (page: Page, day: string) => page.locator(`rect.chart-bar[aria-label^="${barDay(day)} "]`);

/** What of the state the page does not show now. */
async function missing(page: Page, snapshot: AnyMachineSnapshot): Promise<string[]> {
  const shows = dashboardShowsOf(snapshot);
  const problems: string[] = [];
  const select = page.getByLabel(c.dateRange.text, { exact: true });
  if ((await select.inputValue()) !== shows.mode) problems.push(`'${shows.modeLabel.text}' in '${c.dateRange.text}'`);
  const start = page.getByLabel(c.startDate.text, { exact: true });
  const end = page.getByLabel(c.endDate.text, { exact: true });
  if (shows.custom) {
    if ((await start.count()) === 0 || (await start.inputValue()) !== shows.custom.start)
      problems.push(`'${c.startDate.text}' ${shows.custom.start || 'empty'}`);
    if ((await end.count()) === 0 || (await end.inputValue()) !== shows.custom.end)
      problems.push(`'${c.endDate.text}' ${shows.custom.end || 'empty'}`);
  } else if ((await start.count()) + (await end.count()) > 0) {
    problems.push('no custom days');
  }
  if ((await page.locator('.dashboard__content[aria-busy="false"]').count()) === 0) problems.push("the range's figures loaded");
  const headings = (await page.getByRole('heading', { level: 2 }).allTextContents()).map((text) => text.trim());
  for (const heading of [shows.salesDetails, shows.platformSales])
    if (!headings.includes(heading.text)) problems.push(`the heading '${heading.text}'`);
  // Without platform sales there is no Sales Chart to choose: the Fees Chart shows.
  const selector = page.getByRole('group', { name: 'Chart', exact: true });
  const chart = (await selector.count()) > 0 ? shows.chart : 'fees';
  if ((await selector.count()) > 0) {
    const pressed = await selector.getByRole('button', { name: c.chart[chart].text, exact: true }).getAttribute('aria-pressed');
    if (pressed !== 'true') problems.push(`'${c.chart[chart].text}' pressed`);
  }
  if ((await page.getByRole('list', { name: `${c.chart[chart].text} series`, exact: true }).count()) === 0)
    problems.push(`the ${c.chart[chart].text}`);
  const pressedBars = await page
    .locator('rect.chart-bar[aria-pressed="true"]')
    .evaluateAll((found) => found.map((bar) => bar.getAttribute('aria-label') ?? ''));
  if (shows.day === null && pressedBars.length > 0) problems.push('no bar pressed');
  if (shows.day !== null && (pressedBars.length === 0 || pressedBars.some((label) => !label.startsWith(`${barDay(shows.day!)} `)))) {
    problems.push(`the bars of ${barDay(shows.day)} pressed`);
  }
  const query = new URL(page.url()).search.replace(/^\?/, '');
  const expected = serialiseView(selectView(snapshot as Parameters<typeof selectView>[0]));
  if (query !== expected) problems.push(`the address's query '${expected}'`);
  return problems;
}

export async function runDashboardPath({ context, target, network, path, step }: BrowserRun): Promise<void> {
  const account = needAccount(target, 'totp', 'a user whose affiliate has child affiliates and platform sales');
  const page = await context.newPage();
  /** The real machine, sent each event the user's action stands for: what the page should show. */
  const expected = createActor(dashboardMachine).start();
  let toggles = 0;

  const check = (snapshot: AnyMachineSnapshot, event: EventObject, timeout = SCREEN_TIMEOUT_MS) =>
    until(page, dashboardWords.sees(snapshot, event), timeout, () => missing(page, snapshot));

  async function perform(event: DashboardEvent) {
    switch (event.type) {
      case 'RANGE.SELECT':
        return void (await page
          .getByLabel(c.dateRange.text, { exact: true })
          .selectOption({ label: dashboardTexts.modes[event.mode].text }));
      case 'RANGE.CUSTOM_START':
        return page.getByLabel(c.startDate.text, { exact: true }).fill(event.day);
      case 'RANGE.CUSTOM_END':
        return page.getByLabel(c.endDate.text, { exact: true }).fill(event.day);
      case 'DAY.TOGGLE': {
        const bar = bars(page, event.day).first();
        if ((await bars(page, event.day).count()) === 0)
          throw new StepSkipped(`the portal shows no sale on ${event.day}, so there is no bar to select`);
        toggles += 1;
        if (toggles % 2 === 0) {
          await bar.focus();
          await page.keyboard.press('Enter');
        } else {
          await bar.click();
        }
        return;
      }
      case 'DAY.CLEAR': {
        // A point of the chart where no bar is: the empty space itself is under the bars.
        const point = await page
          .locator('rect.chart-empty-space')
          .first()
          .evaluate((space) => {
            const box = space.getBoundingClientRect();
            for (let y = box.top + 1; y < box.bottom; y += 4) {
              for (let x = box.left + 1; x < box.right; x += 2) if (document.elementFromPoint(x, y) === space) return { x, y };
            }
            return null;
          });
        if (!point) throw new Error('The chart has no empty space to click');
        return page.mouse.click(point.x, point.y);
      }
      case 'CHART.SELECT':
        // Any other mode has no control on the page: nothing is done, and the page must stay as it is.
        if (event.mode === 'fees' || event.mode === 'sales')
          await page.getByRole('button', { name: c.chart[event.mode].text, exact: true }).click();
        return;
      case 'AFFILIATE.CHANGED': {
        const affiliate = page.getByLabel(c.affiliate.text, { exact: true });
        if ((await affiliate.inputValue()) === '') await affiliate.selectOption({ index: 1 });
        else await affiliate.selectOption({ value: '' });
        return;
      }
      case 'VIEW.SHOW':
        return followLink(page, viewHref(new URL(page.url()).pathname, event.view));
    }
  }

  try {
    await step(0, async () => {
      if (target.family) placeSales(target, target.family.parent, selectedDays(path));
      await storeFromOtherTab(context, target, await apiSignIn(target, account, true));
      await page.goto(`${target.url}/`);
      await check(path.steps[0]!.state, path.steps[0]!.event, FIRST_SCREEN_TIMEOUT_MS);
    });
    for (const [index, { event, state }] of path.steps.entries()) {
      if (index === 0) continue;
      await step(index, async () => {
        await perform(event as DashboardEvent);
        expected.send(event as DashboardEvent);
        if (JSON.stringify(expected.getSnapshot().value) !== JSON.stringify(state.value))
          throw new Error('The dashboard machine left the path');
        await check(state, event);
      });
    }
  } finally {
    expected.stop();
    network.releaseAll();
  }
}
