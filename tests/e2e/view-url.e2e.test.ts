// The view is the URL (docs/product-rules.md), in a real Chromium against the built portal with
// fresh demo data: a shared link opened in a fresh browser while signed out lands on its view
// after the whole sign-in with a second factor, and the dashboard's first calls already ask for
// its range (with a stored session too, once each); Back and Forward step through the user's changes, a date typed into a date input is
// one of them, and a reload keeps the view; bad values are corrected in place.
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './checks.ts';
import { setUpPortal } from './harness.ts';
import { dashboardHeading, DESKTOP, expectVisible, poll, recordApiRequests, signedInPage, signIn, step } from './session.ts';

// A zone far from UTC, so that a range built in the wrong zone shows.
const ZONE = 'Pacific/Auckland';
const SCREEN = 'dashboard';

const e2e = setUpPortal();

const today = () => DateTime.now().setZone(ZONE).startOf('day');
/** The start of a past month's previous period: as long before its first as the month lasts (elapsed time). */
const wholeLengthBefore = (month: DateTime) => month.toMillis() - (month.plus({ months: 1 }).toMillis() - month.toMillis());
const headingDate = (day: DateTime) => day.setLocale('en-US').toFormat('LLL d, yyyy');
const summaryShown = (p: Page) =>
  expectVisible(p, SCREEN, p.getByRole('region', { name: 'Summary' }).locator('dd').first(), 'the stat boxes', 15_000);
/** The page's path and query. */
const shownUrl = (p: Page) => {
  const url = new URL(p.url());
  return `${url.pathname}${url.search}`;
};
const historyLength = (p: Page) => p.evaluate(() => history.length);

async function urlIs(p: Page, expected: string, after: string): Promise<void> {
  await step(p, SCREEN, `the URL ${expected} after ${after}`, () =>
    poll(`the URL ${expected}`, () => (shownUrl(p) === expected ? true : undefined), 5_000),
  );
}

async function rangeIs(p: Page, mode: string, after: string): Promise<void> {
  await step(p, SCREEN, `'Date range' at ${mode} after ${after}`, () =>
    poll(`'Date range' at ${mode}`, async () => ((await p.getByLabel('Date range').inputValue()) === mode ? true : undefined), 5_000),
  );
}

describe('the view is the URL', () => {
  it('opens a shared link in a fresh browser after the whole sign-in, 2FA included, on the same view', async () => {
    const previousMonth = today().startOf('month').minus({ months: 1 });
    const day = previousMonth.plus({ days: 14 });
    const link = `/affiliate/AFF-100?range=previous&day=${day.toISODate()}&chart=sales`;

    const context = await e2e.browser.newContext({ ...DESKTOP, timezoneId: ZONE });
    const p = e2e.track(await context.newPage());
    const requests = recordApiRequests(p);
    await p.goto(`${e2e.portal.url}${link}`);
    // The gate shows the login form in place; the superuser signs in with an authenticator code.
    await signIn(p, e2e.portal, 'admin', { path: null });

    await expectVisible(
      p,
      SCREEN,
      dashboardHeading(p, 'Globetrotter Travel Sales Dashboard'),
      "the heading 'Globetrotter Travel Sales Dashboard'",
      15_000,
    );
    await summaryShown(p);
    expect(shownUrl(p)).toBe(link);
    expect(await p.getByLabel('Date range').inputValue()).toBe('previous');
    await expectVisible(
      p,
      SCREEN,
      p.getByRole('heading', { level: 2, name: `Sales Details for ${headingDate(day)}`, exact: true }),
      'the selected day of the link',
    );
    await step(p, SCREEN, "'Sales Chart' pressed", async () => {
      expect(await p.getByRole('button', { name: 'Sales Chart', exact: true }).getAttribute('aria-pressed')).toBe('true');
    });
    // The first payment_events/ call asked for Previous Month; the others only for its previous
    // period (its whole length, ending where it starts), never for Last 30 days.
    await step(p, SCREEN, 'payment_events/ asked for Previous Month first, and for no other range but its previous period', () => {
      const asked = requests
        .filter((request) => request.path === 'payment_events/')
        .map((request) => Date.parse(request.url.searchParams.get('start') ?? ''));
      expect(asked[0]).toBe(previousMonth.toMillis());
      for (const start of asked) expect([previousMonth.toMillis(), wholeLengthBefore(previousMonth)]).toContain(start);
      return Promise.resolve();
    });
    await expectAccessible(p, SCREEN);
  });

  it("asks for a link's range once each, from the first calls, in a browser with a stored session", async () => {
    const first = e2e.track(await signedInPage(e2e.browser, e2e.portal, 'globetrotter', { context: { timezoneId: ZONE } }));
    await summaryShown(first);
    const p = await first.context().newPage();
    const requests = recordApiRequests(p);
    await p.goto(`${e2e.portal.url}/?range=previous&chart=sales`);
    await summaryShown(p);
    expect(await p.getByLabel('Date range').inputValue()).toBe('previous');
    const previousMonth = today().startOf('month').minus({ months: 1 });
    const beforeIt = wholeLengthBefore(previousMonth);
    await step(
      p,
      SCREEN,
      'payment_events/ and connection_fees/ asked once each for Previous Month, first, and otherwise only for its previous period',
      () => {
        for (const path of ['payment_events/', 'connection_fees/']) {
          const asked = requests
            .filter((request) => request.path === path)
            .map((request) => Date.parse(request.url.searchParams.get('start') ?? ''));
          expect(asked[0], path).toBe(previousMonth.toMillis());
          expect(
            asked.filter((start) => start === previousMonth.toMillis()),
            path,
          ).toHaveLength(1);
          for (const start of asked) expect([previousMonth.toMillis(), beforeIt], path).toContain(start);
        }
        return Promise.resolve();
      },
    );
  });

  it('steps through the changes with Back and Forward, one entry per change, and keeps the view on reload', async () => {
    const p = e2e.track(await signedInPage(e2e.browser, e2e.portal, 'globetrotter', { context: { timezoneId: ZONE } }));
    await summaryShown(p);
    await urlIs(p, '/', 'signing in');
    const start = await historyLength(p);

    // A day, then Current Month (the day goes), then another affiliate.
    const bar = p.getByRole('button', { name: / Referral Fees / }).last();
    await bar.click();
    const selected = await step(p, SCREEN, 'the day in the URL', () =>
      poll('day=', () => new URL(p.url()).searchParams.get('day') ?? undefined, 5_000),
    );
    const dayHeading = headingDate(DateTime.fromISO(selected));
    await p.getByLabel('Date range').selectOption({ label: 'Current Month' });
    await urlIs(p, '/?range=current', "choosing 'Current Month'");
    await p.getByLabel('Affiliate', { exact: true }).selectOption({ label: 'Globetrotter Berlin' });
    await urlIs(p, '/affiliate/AFF-110?range=current', "choosing 'Globetrotter Berlin'");
    await expectVisible(p, SCREEN, dashboardHeading(p, 'Globetrotter Berlin Sales Dashboard'), 'the Berlin dashboard');

    // A custom start typed digit by digit (each a change of the input's value) is one entry.
    await p.getByLabel('Date range').selectOption({ label: 'Custom Date Range' });
    await urlIs(p, '/affiliate/AFF-110?range=custom', "choosing 'Custom Date Range'");
    const first = today().startOf('month').minus({ months: 1 });
    await p.getByLabel('Start date').focus();
    await p.keyboard.type(first.toFormat('MMddyyyy'), { delay: 30 });
    await urlIs(p, `/affiliate/AFF-110?range=custom&start=${first.toISODate()}`, 'typing the start date');
    expect(await historyLength(p)).toBe(start + 5);

    await p.goBack();
    await urlIs(p, '/affiliate/AFF-110?range=custom', 'Back');
    await expectVisible(p, SCREEN, p.getByLabel('Start date'), "the empty 'Start date'");
    expect(await p.getByLabel('Start date').inputValue()).toBe('');
    await p.goBack();
    await urlIs(p, '/affiliate/AFF-110?range=current', 'Back');
    await rangeIs(p, 'current', 'Back');
    await p.goBack();
    await urlIs(p, '/?range=current', 'Back');
    await expectVisible(p, SCREEN, dashboardHeading(p, 'Globetrotter Travel Sales Dashboard'), 'the dashboard of all affiliates again');
    await rangeIs(p, 'current', 'Back');
    await p.goBack();
    await urlIs(p, `/?day=${selected}`, 'Back');
    await rangeIs(p, 'last30', 'Back');
    await expectVisible(
      p,
      SCREEN,
      p.getByRole('heading', { level: 2, name: `Sales Details for ${dayHeading}`, exact: true }),
      'the selected day again',
    );

    await p.reload();
    await summaryShown(p);
    await expectVisible(
      p,
      SCREEN,
      p.getByRole('heading', { level: 2, name: `Sales Details for ${dayHeading}`, exact: true }),
      'the selected day after a reload',
    );
    expect(shownUrl(p)).toBe(`/?day=${selected}`);

    await p.goForward();
    await urlIs(p, '/?range=current', 'Forward');
    await rangeIs(p, 'current', 'Forward');
    await expectVisible(p, SCREEN, p.getByRole('heading', { level: 2, name: 'Sales Details', exact: true }), 'no selected day');
    await p.goForward();
    await urlIs(p, '/affiliate/AFF-110?range=current', 'Forward');
    await expectVisible(p, SCREEN, dashboardHeading(p, 'Globetrotter Berlin Sales Dashboard'), 'the Berlin dashboard again');
  });

  it('corrects bad values in place, each to its default, with no error page', async () => {
    const p = e2e.track(await signedInPage(e2e.browser, e2e.portal, 'globetrotter', { context: { timezoneId: ZONE } }));
    await summaryShown(p);
    const end = today().minus({ days: 3 }).toISODate();

    await p.goto(`${e2e.portal.url}/?range=weekly&day=1999-01-01&chart=pie`);
    await summaryShown(p);
    const length = await historyLength(p);
    await urlIs(p, '/', 'opening unknown values');
    await rangeIs(p, 'last30', 'opening an unknown mode');

    await p.goto(`${e2e.portal.url}/?range=custom&start=2026-02-30&end=${end}&chart=sales`);
    await urlIs(p, `/?range=custom&end=${end}&chart=sales`, 'opening an impossible start date');
    expect(await p.getByLabel('Start date').inputValue()).toBe('');
    expect(await p.getByLabel('End date').inputValue()).toBe(end);
    // Corrected by replacing the entry: no entry more than the two pages opened.
    expect(await historyLength(p)).toBe(length + 1);
    await p.goBack();
    await urlIs(p, '/', 'Back');
  });
});
