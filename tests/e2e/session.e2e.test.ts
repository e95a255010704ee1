// The session across the portal: the access token refreshed 60 s before expiry without the user
// doing anything, a reload keeping the session, Logout (also in another tab of the same browser),
// unknown paths going to /, and a gated route showing the login gate in place until sign-in
// completes.
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ownPortal, setUpPortal } from './harness.ts';
import { dashboardHeading, expectVisible, poll, signIn, step, storedToken, type StoredToken } from './session.ts';

const e2e = setUpPortal();

const expiry = (access: string) => (JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number }).exp;

const loginHeading = (p: Page) => p.getByRole('heading', { name: 'Affiliate Login' });
const reportsHeading = (p: Page) => p.getByRole('heading', { level: 1, name: 'Reports', exact: true });

/** Waits until the stored access token is no longer `previous`, and answers the new record. */
function tokenReplaced(p: Page, screen: string, previous: string, timeout: number): Promise<StoredToken> {
  return step(p, screen, `the stored access token replaced within ${timeout / 1000} s, without any user action`, () =>
    poll(
      'a new access token in localStorage auth_token',
      async () => {
        const token = await storedToken(p);
        if (token === null) throw new Error('auth_token was cleared: the session ended instead of being refreshed');
        return token.access !== previous ? token : undefined;
      },
      timeout,
      200,
    ),
  );
}

describe('a short-lived access token', () => {
  const shortLived = ownPortal({ accessLifetimeSeconds: 65 });

  it('is refreshed 60 s before expiry while the user stays on the dashboard, and a reload keeps the session', async () => {
    const p = await e2e.freshPage();
    await signIn(p, shortLived.portal, 'globetrotter');
    await expectVisible(p, 'dashboard', dashboardHeading(p, 'Globetrotter Travel Sales Dashboard'), 'the dashboard after sign-in', 15_000);
    const first = (await storedToken(p))!;
    expect(first.username).toBe('globetrotter');
    expect(expiry(first.access) - Date.now() / 1000).toBeLessThanOrEqual(65);

    const second = await tokenReplaced(p, 'dashboard', first.access, 10_000);
    await step(p, 'dashboard', 'a later expiry, a new refresh token, and still the dashboard at /', async () => {
      expect(expiry(second.access)).toBeGreaterThan(expiry(first.access));
      expect(second.refresh).not.toBe(first.refresh);
      expect(second.username).toBe('globetrotter');
      expect(p.url()).toBe(`${shortLived.portal.url}/`);
      expect(await dashboardHeading(p, 'Globetrotter Travel Sales Dashboard').isVisible()).toBe(true);
      expect(await loginHeading(p).count()).toBe(0);
    });

    // A reload starts from the stored session (on Reports here; the test below reloads at /).
    await p.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reports' }).click();
    await expectVisible(p, 'Reports', reportsHeading(p), "the 'Reports' heading");
    await p.reload();
    await expectVisible(p, 'Reports (reloaded)', reportsHeading(p), "'Reports' again after a reload, not the login screen", 15_000);
    const afterReload = (await storedToken(p))!;
    // The refreshes go on after the reload.
    await tokenReplaced(p, 'Reports (reloaded)', afterReload.access, 10_000);
    expect(await reportsHeading(p).isVisible()).toBe(true);
  });

  // Two tabs' timers fire together for the same stored token, and a refresh token works once.
  // The refresh answers wait (up to 3 s) until both tabs have asked, as on a slow network; the
  // tabs take turns (Web Locks) and the second takes the session the first stored.
  it('keeps two tabs of the session signed in when both refresh at once', async () => {
    const a = await e2e.freshPage();
    let round: Route[] | null = [];
    const releaseRound = () => {
      const held = round ?? [];
      round = null;
      for (const route of held) void route.continue();
    };
    await a.context().route('**/api/v2/token/refresh/', async (route) => {
      if (round === null) return route.continue();
      round.push(route);
      if (round.length >= 2) releaseRound();
      else setTimeout(releaseRound, 3_000);
    });
    await signIn(a, shortLived.portal, 'berlin');
    const b = await a.context().newPage();
    await b.goto(`${shortLived.portal.url}/reports`);
    await expectVisible(b, 'Reports (second tab)', reportsHeading(b), 'the second tab signed in by the shared session', 15_000);
    const first = (await storedToken(a))!;

    const second = await tokenReplaced(a, 'dashboard (first tab)', first.access, 15_000);
    // The next refresh shows that the session went on after the first one.
    await tokenReplaced(a, 'dashboard (first tab)', second.access, 15_000);
    for (const [name, p] of [
      ['first tab', a],
      ['second tab', b],
    ] as const) {
      await step(p, name, 'still signed in after the refreshes', async () => {
        expect(await loginHeading(p).count()).toBe(0);
        expect(await p.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
      });
    }
  });
});

describe('signing out', () => {
  it('logs out from the header: the login screen, an empty localStorage, and no way back in without signing in', async () => {
    const p = await e2e.freshPage();
    await signIn(p, e2e.portal, 'berlin');
    await expectVisible(p, 'dashboard', dashboardHeading(p, 'Globetrotter Berlin Sales Dashboard'), 'the dashboard after sign-in', 15_000);
    expect(await storedToken(p)).not.toBeNull();

    await p.getByRole('button', { name: 'Logout' }).click();
    await expectVisible(p, 'login', loginHeading(p), "the 'Affiliate Login' screen after Logout");
    await step(p, 'login', 'localStorage without auth_token (nothing left of the session), and the logout events', async () => {
      expect(await p.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
      expect(await p.evaluate(() => Object.keys(localStorage))).toEqual([]);
      const dataLayer = await p.evaluate(() => (window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []);
      expect(dataLayer).toEqual(expect.arrayContaining([{ event: 'logout' }, { user_id: null }]));
      expect(await p.getByRole('button', { name: 'Logout' }).count()).toBe(0);
    });

    await p.goto(`${e2e.portal.url}/reports`);
    await expectVisible(p, 'login', loginHeading(p), 'the login gate on /reports after logging out');
    expect(await reportsHeading(p).count()).toBe(0);
  });

  it('logs out every tab of the browser when one tab logs out', async () => {
    const a = await e2e.freshPage();
    await signIn(a, e2e.portal, 'berlin');
    await expectVisible(a, 'dashboard (first tab)', dashboardHeading(a, 'Globetrotter Berlin Sales Dashboard'), 'the dashboard', 15_000);
    const b = await a.context().newPage();
    await b.goto(`${e2e.portal.url}/reports`);
    await expectVisible(b, 'Reports (second tab)', reportsHeading(b), 'the second tab signed in by the shared session', 15_000);

    await a.getByRole('button', { name: 'Logout' }).click();
    await expectVisible(a, 'login (first tab)', loginHeading(a), "the 'Affiliate Login' screen after Logout");
    await expectVisible(
      b,
      'Reports (second tab)',
      loginHeading(b),
      'the login screen in the other tab, without a reload (the storage event)',
    );
    await step(b, 'login (second tab)', 'no Logout button and no Reports left in the other tab', async () => {
      expect(await b.getByRole('button', { name: 'Logout' }).count()).toBe(0);
      expect(await reportsHeading(b).count()).toBe(0);
    });
  });
});

describe('routes', () => {
  it('sends an unknown path to /, signed out and signed in', async () => {
    const p = await e2e.freshPage();
    await p.goto(`${e2e.portal.url}/no/such/page`);
    await step(p, 'unknown path', 'a redirect to /', () => p.waitForURL(`${e2e.portal.url}/`));
    await expectVisible(p, 'login', loginHeading(p), 'the login gate at / while signed out');

    await signIn(p, e2e.portal, 'berlin');
    await p.goto(`${e2e.portal.url}/reports/nothing-here`);
    await step(p, 'unknown path (signed in)', 'a redirect to /', () => p.waitForURL(`${e2e.portal.url}/`));
    await expectVisible(p, 'dashboard', dashboardHeading(p, 'Globetrotter Berlin Sales Dashboard'), 'the dashboard at /', 15_000);
  });

  it('shows the login gate in place on /reports while signed out, then Reports after signing in', async () => {
    const p = await e2e.freshPage();
    await p.goto(`${e2e.portal.url}/reports`);
    await expectVisible(p, 'login gate on /reports', loginHeading(p), 'the login form in place of Reports');
    expect(new URL(p.url()).pathname).toBe('/reports');
    expect(await reportsHeading(p).count()).toBe(0);

    await signIn(p, e2e.portal, 'berlin', { path: null });
    await expectVisible(p, 'Reports', reportsHeading(p), "'Reports' once the session is complete", 15_000);
    expect(new URL(p.url()).pathname).toBe('/reports');
    await step(p, 'Reports', 'the Reports tab marked as the current page', async () => {
      expect(
        await p.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reports' }).getAttribute('aria-current'),
      ).toBe('page');
    });
  });

  it('completing sign-in on /login goes to /', async () => {
    const p = await e2e.freshPage();
    await signIn(p, e2e.portal, 'berlin');
    await step(p, 'sign-in', 'the route / after signing in on /login', () => p.waitForURL(`${e2e.portal.url}/`));
    await expectVisible(p, 'dashboard', dashboardHeading(p, 'Globetrotter Berlin Sales Dashboard'), 'the dashboard', 15_000);
  });

  it('opens the portal, and keeps the session on a reload, at / itself', async () => {
    const p = await e2e.freshPage();
    await signIn(p, e2e.portal, 'berlin');
    await step(p, 'dashboard', 'a reload at / to show the dashboard again', async () => {
      await p.reload();
      await dashboardHeading(p, 'Globetrotter Berlin Sales Dashboard').waitFor({ timeout: 10_000 });
    });
  });
});
