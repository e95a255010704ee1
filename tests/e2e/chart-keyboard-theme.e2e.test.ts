// The chart from the keyboard and the dark theme, in a real Chromium against the built portal:
// the chart is one tab stop, the arrow keys, Home and End move between its bars, Enter selects the
// day and Escape clears it (docs/product-rules.md, The chart from the keyboard); with the system
// set to dark every screen is dark and axe-clean, the QR code stays dark on light, and the chart's
// axis text follows the theme, also when the system setting changes while the page is open; the
// bars' outlines keep 3:1 contrast on the chart's card in either theme.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_INVITE_ID } from '../../server/seed.ts';
import { expectAccessible, keepScreenshot, settled } from './checks.ts';
import { setUpPortal } from './harness.ts';
import { password } from './portal.ts';
import { DESKTOP, expectVisible, signedInPage, step } from './session.ts';

const SCREEN = 'dashboard';
const DARK: BrowserContextOptions = { ...DESKTOP, colorScheme: 'dark' };
/** The page background of each theme (--color-background). */
const LIGHT_BACKGROUND = 'rgb(238, 241, 243)';
const DARK_BACKGROUND = 'rgb(18, 23, 28)';
/** The chart's axis text (--color-text-muted) of each theme. */
const LIGHT_AXIS_TEXT = 'rgb(82, 96, 109)';
const DARK_AXIS_TEXT = 'rgb(163, 174, 185)';

const e2e = setUpPortal();

async function dashboard(context: BrowserContextOptions = {}): Promise<Page> {
  const page = e2e.track(await signedInPage(e2e.browser, e2e.portal, 'globetrotter', { context }));
  await expectVisible(page, SCREEN, page.getByRole('button', { name: / Referral Fees / }).first(), 'the Fees Chart with its bars', 15_000);
  return page;
}

async function signedOutPage(path: string, context: BrowserContextOptions = DARK): Promise<Page> {
  const page = e2e.track(await (await e2e.browser.newContext(context)).newPage());
  await page.goto(`${e2e.portal.url}${path}`);
  return page;
}

/** The aria-label of the focused element when it is a chart bar, else null. */
const focusedBar = (p: Page) =>
  p.evaluate(() => (document.activeElement?.matches('.chart-bar') ? document.activeElement.getAttribute('aria-label') : null));

const pressedBars = (p: Page) =>
  p.locator('svg [role="button"][aria-pressed="true"]').evaluateAll((bars) => bars.map((bar) => bar.getAttribute('aria-label') ?? ''));

/** 'M/d' of a bar label, read as a number that grows with the day (the range is within one year or two). */
function dayOrder(barLabel: string, today = new Date()): number {
  const [month, day] = (barLabel.split(' ')[0] ?? '').split('/').map(Number) as [number, number];
  const year = month > today.getMonth() + 1 ? today.getFullYear() - 1 : today.getFullYear();
  return new Date(year, month - 1, day).getTime();
}

async function pageBackground(p: Page): Promise<string> {
  return p.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

/** WCAG's contrast ratio of two opaque 'rgb(r, g, b)' colours. */
function contrast(first: string, second: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = (color.match(/\d+(\.\d+)?/g) ?? []).map(Number).map((channel) => {
      const value = channel / 255;
      return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Each series' bar outline (one bar's, not focused) and the background of the card the chart is on. */
async function barOutlines(p: Page): Promise<{ series: string; stroke: string; card: string }[]> {
  return p.evaluate(() => {
    const bars = [...document.querySelectorAll<SVGRectElement>('.chart-bar:not(:focus)')];
    const cardOf = (element: Element): string => {
      for (let at: Element | null = element; at; at = at.parentElement) {
        const background = getComputedStyle(at).backgroundColor;
        if (background !== 'rgba(0, 0, 0, 0)' && background !== 'transparent') return background;
      }
      return '';
    };
    const seen = new Map<string, { series: string; stroke: string; card: string }>();
    for (const bar of bars) {
      const series = (bar.getAttribute('aria-label') ?? '').replace(/^\S+ /, '').replace(/ -?\$.*$/, '');
      if (!seen.has(series)) seen.set(series, { series, stroke: getComputedStyle(bar).stroke, card: cardOf(bar) });
    }
    return [...seen.values()];
  });
}

async function axisTextFill(p: Page): Promise<string> {
  return p.evaluate(() => {
    const text = document.querySelector('.daily-chart svg text');
    return text ? getComputedStyle(text).fill : '';
  });
}

describe('the chart from the keyboard', () => {
  it('is one tab stop: Tab reaches a bar, arrows move between bars, Enter selects the day, Escape clears it', async () => {
    const p = await dashboard();
    const bars = p.locator('.chart-bar');

    await step(p, SCREEN, 'one chart bar with tabindex 0, every other bar -1', async () => {
      expect(await bars.count()).toBeGreaterThan(2);
      expect(await p.locator('.chart-bar[tabindex="0"]').count()).toBe(1);
    });

    // From the chart's heading, Tab goes through the chart selector (when there is one) to the chart.
    await p.locator('.chart-panel__title').click();
    const first = await step(p, SCREEN, 'Tab to reach a chart bar', async () => {
      for (let presses = 0; presses < 5; presses++) {
        await p.keyboard.press('Tab');
        const label = await focusedBar(p);
        if (label) return label;
      }
      throw new Error('no chart bar after 5 presses of Tab');
    });
    await step(p, SCREEN, 'the focused bar outlined (focus-visible, in the focus colour)', async () => {
      const look = await p.evaluate(() => {
        const bar = document.activeElement!;
        return { visible: bar.matches(':focus-visible'), stroke: getComputedStyle(bar).stroke, width: getComputedStyle(bar).strokeWidth };
      });
      expect(look).toEqual({ visible: true, stroke: 'rgb(29, 78, 216)', width: '3px' });
    });

    await p.keyboard.press('ArrowRight');
    await step(p, SCREEN, 'ArrowRight to focus a bar of a later day', async () => {
      const second = await focusedBar(p);
      expect(second).not.toBeNull();
      expect(dayOrder(second!)).toBeGreaterThan(dayOrder(first));
    });
    await p.keyboard.press('ArrowLeft');
    await step(p, SCREEN, 'ArrowLeft to go back to the first bar', async () => expect(await focusedBar(p)).toBe(first));

    await p.keyboard.press('End');
    const last = await focusedBar(p);
    await step(p, SCREEN, 'End to focus a bar of the last day with bars', async () => {
      const days = await bars.evaluateAll((elements) => elements.map((bar) => bar.getAttribute('aria-label') ?? ''));
      const latest = Math.max(...days.map((label) => dayOrder(label)));
      expect(last).not.toBeNull();
      expect(dayOrder(last!)).toBe(latest);
    });

    await p.keyboard.press('Enter');
    const lastDay = last!.split(' ')[0]!;
    await step(p, SCREEN, `Enter to select the day ${lastDay}: its bars pressed and the tables filtered`, async () => {
      await p.getByRole('heading', { level: 2, name: /^Sales Details for / }).waitFor();
      const pressed = await pressedBars(p);
      expect(pressed).toContain(last);
      expect(pressed.every((label) => label.startsWith(`${lastDay} `))).toBe(true);
      expect(await focusedBar(p)).toBe(last);
    });

    await p.keyboard.press('Escape');
    await step(p, SCREEN, 'Escape to clear the day', async () => {
      await p.getByRole('heading', { level: 2, name: 'Sales Details', exact: true }).waitFor();
      expect(await pressedBars(p)).toEqual([]);
    });

    // Tab leaves the chart at once, and Shift+Tab comes back to the bar last focused.
    await p.keyboard.press('Tab');
    await step(p, SCREEN, 'Tab to leave the chart after one stop', async () => expect(await focusedBar(p)).toBeNull());
    await p.keyboard.press('Shift+Tab');
    await step(p, SCREEN, 'Shift+Tab to return to the bar last focused', async () => expect(await focusedBar(p)).toBe(last));
  });

  it("describes the keys to screen readers and lists the chart's values in a table", async () => {
    const p = await dashboard();
    await step(p, SCREEN, 'the chart described by its keyboard hint', async () => {
      const description = await p.evaluate(() => {
        const ids = document.querySelector('.daily-chart svg[role="group"]')?.getAttribute('aria-describedby') ?? '';
        return ids
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ');
      });
      expect(description).toBe('Arrow keys move between days and series, Enter or Space selects the day, Escape clears it.');
    });
    await step(p, SCREEN, "the chart's table: a row per day of the last 30 days, a column per series", async () => {
      const table = p.getByRole('table', { name: /^Fees Chart, .+: amounts per day$/ });
      await table.waitFor({ state: 'attached' });
      expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Day', 'Referral Fees', 'Connection Fees']);
      // Last 30 days: today and the 30 before, and the heading row.
      expect(await table.getByRole('row').count()).toBe(32);
      expect(await table.getByRole('cell').first().textContent()).toMatch(/^-?\$[\d,]+\.\d\d$/);
    });
  });
});

describe('the dark theme', () => {
  it('shows the login, 2FA, setup and invite screens dark and axe-clean, the QR code dark on light', async () => {
    const login = await signedOutPage('/login');
    await expectVisible(login, 'login (dark)', login.getByRole('heading', { name: 'Affiliate Login' }), "the 'Affiliate Login' form");
    await step(login, 'login (dark)', 'the dark page background', async () => expect(await pageBackground(login)).toBe(DARK_BACKGROUND));
    await settled(login);
    await expectAccessible(login, 'login (dark)');
    await keepScreenshot(login, 'login-dark');

    // The second step (a TOTP account), without entering a code.
    await login.getByLabel('Email or Username').fill('globetrotter');
    await login.getByLabel('Password', { exact: true }).fill(password);
    await login.getByRole('button', { name: 'Login' }).click();
    await expectVisible(login, 'TOTP verification (dark)', login.getByRole('heading', { name: 'Enter 2FA Code' }), "'Enter 2FA Code'");
    await settled(login);
    await expectAccessible(login, 'TOTP verification (dark)');

    // First-time setup (an account without a method), up to the QR code.
    const setup = await signedOutPage('/login');
    await setup.getByLabel('Email or Username').fill('sunny');
    await setup.getByLabel('Password', { exact: true }).fill(password);
    await setup.getByRole('button', { name: 'Login' }).click();
    await expectVisible(
      setup,
      'setup required (dark)',
      setup.getByRole('heading', { name: 'Two-Factor Authentication Required' }),
      'the setup choice',
    );
    await settled(setup);
    await expectAccessible(setup, 'setup required (dark)');
    await setup.getByRole('button', { name: 'Authenticator App' }).click();
    const qr = setup.getByRole('img', { name: 'QR code for your authenticator app' });
    await expectVisible(setup, 'TOTP setup (dark)', qr, 'the QR code');
    await step(setup, 'TOTP setup (dark)', 'the QR code on a white box', async () =>
      expect(await qr.evaluate((svg) => getComputedStyle(svg).backgroundColor)).toBe('rgb(255, 255, 255)'),
    );
    await settled(setup);
    await expectAccessible(setup, 'TOTP setup (dark)');
    await keepScreenshot(setup, 'totp-setup-dark');

    const invite = await signedOutPage(`/invite/${DEMO_INVITE_ID}`);
    await expectVisible(invite, 'invite (dark)', invite.getByLabel('Confirm Password'), 'the invite form');
    await settled(invite);
    await expectAccessible(invite, 'invite (dark)');
  });

  it('shows the dashboard and reports dark and axe-clean, the chart in the theme, and follows a change of the system setting', async () => {
    const p = await dashboard(DARK);
    await step(p, 'dashboard (dark)', "the dark page background and the chart's axis text in the dark theme", async () => {
      expect(await pageBackground(p)).toBe(DARK_BACKGROUND);
      expect(await axisTextFill(p)).toBe(DARK_AXIS_TEXT);
    });
    await settled(p);
    await expectAccessible(p, 'dashboard (dark)');
    await keepScreenshot(p, 'dashboard-dark');

    // A selected day and the focused bar, dark as well.
    const bar = p.getByRole('button', { name: / Referral Fees / }).first();
    await bar.click();
    await settled(p);
    await expectAccessible(p, 'dashboard with a selected day (dark)');

    await p.emulateMedia({ colorScheme: 'light' });
    await step(p, 'dashboard (switched to light)', 'the light page background and axis text', async () => {
      expect(await pageBackground(p)).toBe(LIGHT_BACKGROUND);
      await p.waitForFunction((fill) => getComputedStyle(document.querySelector('.daily-chart svg text')!).fill === fill, LIGHT_AXIS_TEXT, {
        timeout: 5_000,
      });
    });
    await p.emulateMedia({ colorScheme: 'dark' });

    await p.getByRole('link', { name: 'Reports' }).click();
    await expectVisible(p, 'reports (dark)', p.getByRole('table', { name: 'Reports' }), 'the reports table', 15_000);
    await settled(p);
    await expectAccessible(p, 'reports (dark)');
  });

  it("outlines the bars of each series with at least 3:1 contrast on the chart's card, light and dark", async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const p = await dashboard({ colorScheme });
      await step(p, `dashboard (${colorScheme})`, 'the outline of each series against the card', async () => {
        const outlines = await barOutlines(p);
        expect(outlines.map((outline) => outline.series).sort()).toEqual(['Connection Fees', 'Referral Fees']);
        for (const { series, stroke, card } of outlines) {
          expect(contrast(stroke, card), `${series}: ${stroke} on ${card}`).toBeGreaterThanOrEqual(3);
        }
      });
    }
  });

  it('passes axe on the login and the dashboard in the light theme too', async () => {
    const login = await signedOutPage('/login', { ...DESKTOP, colorScheme: 'light' });
    await expectVisible(login, 'login (light)', login.getByRole('heading', { name: 'Affiliate Login' }), "the 'Affiliate Login' form");
    expect(await pageBackground(login)).toBe(LIGHT_BACKGROUND);
    await settled(login);
    await expectAccessible(login, 'login (light)');

    const p = await dashboard({ colorScheme: 'light' });
    expect(await axisTextFill(p)).toBe(LIGHT_AXIS_TEXT);
    await settled(p);
    await expectAccessible(p, 'dashboard (light)');
  });
});
