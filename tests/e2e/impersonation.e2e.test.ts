// Viewing the portal as an affiliate (see docs/product-rules.md, Who sees what): the superuser's
// 'View as Affiliate' selector in the header, the 'Viewing as' line, the impersonate_affiliate
// parameter on every API call meanwhile, and its absence for other users; the header keeps the
// logo and Logout on its first row, wide or narrow.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkScreen } from './checks.ts';
import { setUpPortal } from './harness.ts';
import { expectVisible, poll, recordApiRequests, signedInPage, step, type ApiRequest } from './session.ts';

const SCREEN = 'View as Affiliate';

const e2e = setUpPortal();

const dashboardHeading = (p: Page, name: string) => p.getByRole('heading', { level: 1, name, exact: true });
const viewAs = (p: Page) => p.getByLabel('View as Affiliate');

async function dashboardLoaded(p: Page, heading: string): Promise<void> {
  await expectVisible(p, 'dashboard', dashboardHeading(p, heading), `the heading '${heading}'`, 15_000);
  await expectVisible(p, 'dashboard', p.getByRole('region', { name: 'Summary' }).locator('dd').first(), 'the stat boxes', 15_000);
  await step(p, 'dashboard', "no 'Loading sales...' once the data is there", () =>
    p.getByText('Loading sales...').first().waitFor({ state: 'hidden' }),
  );
}

/**
 * The header's first row: the logo and Logout side by side at its two ends. Wide, the selector and
 * the 'Viewing as' line between them (left of Logout); narrow, on rows of their own below.
 */
async function expectHeaderRows(p: Page, viewport: 'desktop' | '390 px'): Promise<void> {
  await step(p, SCREEN, `the logo and Logout on the header's first row, Logout at its right end (${viewport})`, async () => {
    const box = async (name: string, locator: ReturnType<Page['locator']>) => {
      const found = await locator.boundingBox();
      if (!found) throw new Error(`no ${name} on screen`);
      return found;
    };
    const logo = await box('logo', p.getByRole('link', { name: 'Affiliate Portal' }));
    const logout = await box('Logout', p.getByRole('button', { name: 'Logout' }));
    const selector = await box('selector', viewAs(p));
    const notice = await box("'Viewing as' line", p.getByText(/^Viewing as /).locator('..'));
    expect(Math.abs(logout.y - logo.y)).toBeLessThanOrEqual(2);
    expect(logout.x).toBeGreaterThan(logo.x + logo.width);
    for (const control of [selector, notice]) {
      if (viewport === 'desktop') {
        expect(control.x).toBeGreaterThan(logo.x + logo.width);
        expect(control.x + control.width).toBeLessThanOrEqual(logout.x + 1);
      } else {
        expect(control.y).toBeGreaterThanOrEqual(logout.y + logout.height - 1);
      }
    }
    expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}

/** Waits for a call to `path` made after `from` in the log, and answers it. */
function calledAfter(p: Page, log: ApiRequest[], from: number, path: string, screen: string): Promise<ApiRequest> {
  return step(p, screen, `a call to ${path}`, () =>
    poll(`a call to ${path}`, () => log.slice(from).find((request) => request.path === path)),
  );
}

describe('View as Affiliate', () => {
  it('lets the superuser view the portal as Globetrotter Travel, every call carrying impersonate_affiliate, and stop', async () => {
    const p = e2e.track(await signedInPage(e2e.browser, e2e.portal, 'admin'));
    const log = recordApiRequests(p);
    await dashboardLoaded(p, 'Sales Dashboard');

    const selector = viewAs(p);
    await expectVisible(p, SCREEN, selector, "the header's 'View as Affiliate' selector for a superuser");
    await step(p, SCREEN, 'the selector enabled and listing the affiliates', async () => {
      await p.waitForFunction((element) => !(element as HTMLSelectElement).disabled, await selector.elementHandle());
      const options = await selector.locator('option').allTextContents();
      expect(options).toEqual(
        expect.arrayContaining([
          'Globetrotter Travel',
          'Globetrotter Berlin',
          'Globetrotter Lisbon',
          'Sunny Trips',
          'Nomad Cover Partners',
          'Nomad Students',
        ]),
      );
      expect(await selector.inputValue()).toBe('');
    });

    const mark = log.length;
    await selector.selectOption({ label: 'Globetrotter Travel' });
    await expectVisible(p, SCREEN, p.getByText('Viewing as Globetrotter Travel', { exact: true }), "'Viewing as Globetrotter Travel'");
    await dashboardLoaded(p, 'Globetrotter Travel Sales Dashboard');
    expect(p.url()).toBe(`${e2e.portal.url}/`);
    await calledAfter(p, log, mark, 'payment_events/', 'dashboard (viewing as)');
    await calledAfter(p, log, mark, 'connection_fees/', 'dashboard (viewing as)');
    await checkScreen(p, 'view-as-affiliate');
    await expectHeaderRows(p, 'desktop');
    const desktop = p.viewportSize();
    await p.setViewportSize({ width: 390, height: 844 });
    await expectHeaderRows(p, '390 px');
    if (desktop) await p.setViewportSize(desktop);

    // The reports while viewing as: their calls carry the parameter too.
    await p.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reports' }).click();
    await expectVisible(p, 'Reports (viewing as)', p.getByRole('table', { name: 'Reports' }), 'the reports of Globetrotter Travel', 15_000);
    await calledAfter(p, log, mark, 'reports/affiliate/', 'Reports (viewing as)');
    await step(p, 'Reports (viewing as)', 'the periods of one affiliate only (no "(AFF-...)" suffix)', async () => {
      const periods = await p.getByRole('table', { name: 'Reports' }).locator('tbody th').allTextContents();
      expect(periods.length).toBeGreaterThan(0);
      for (const period of periods) expect(period).toMatch(/^[A-Z][a-z]+ \d{4}$/);
    });
    await p.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Dashboard' }).click();
    await dashboardLoaded(p, 'Globetrotter Travel Sales Dashboard');

    const whileViewing = log.slice(mark);
    await step(p, SCREEN, 'impersonate_affiliate=AFF-100 on every API call while viewing as Globetrotter Travel', () => {
      expect(whileViewing.length).toBeGreaterThan(0);
      const without = whileViewing.filter((request) => request.url.searchParams.get('impersonate_affiliate') !== 'AFF-100');
      expect(without.map((request) => `${request.method} ${request.url.pathname}${request.url.search}`)).toEqual([]);
      return Promise.resolve();
    });

    const stop = log.length;
    await p.getByRole('button', { name: 'Stop viewing as Globetrotter Travel' }).click();
    await step(p, SCREEN, "the 'Viewing as' line gone after 'Stop viewing as Globetrotter Travel'", () =>
      p.getByText('Viewing as Globetrotter Travel', { exact: true }).waitFor({ state: 'hidden' }),
    );
    await dashboardLoaded(p, 'Sales Dashboard');
    expect(await selector.inputValue()).toBe('');
    await step(p, SCREEN, 'no impersonate_affiliate on the calls after stopping', () => {
      const withParameter = log.slice(stop).filter((request) => request.url.searchParams.has('impersonate_affiliate'));
      expect(withParameter.map((request) => request.url.pathname + request.url.search)).toEqual([]);
      return Promise.resolve();
    });
  });

  it("has no 'View as Affiliate' for a user who is not a superuser", async () => {
    const p = e2e.track(await signedInPage(e2e.browser, e2e.portal, 'berlin'));
    await dashboardLoaded(p, 'Globetrotter Berlin Sales Dashboard');
    await step(p, 'dashboard (berlin)', "no 'View as Affiliate' selector and no 'Viewing as' line", async () => {
      expect(await viewAs(p).count()).toBe(0);
      expect(await p.getByText(/^Viewing as /).count()).toBe(0);
    });
    // Nor anywhere else in the portal.
    await p.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reports' }).click();
    await expectVisible(p, 'Reports (berlin)', p.getByRole('heading', { level: 1, name: 'Reports' }), "the 'Reports' heading");
    expect(await viewAs(p).count()).toBe(0);
  });
});
