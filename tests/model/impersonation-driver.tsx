// Drives one generated path of the impersonation machine (tests/model/impersonation-paths.ts)
// through the real header and Sales Dashboard, signed in as the fixture superuser 'admin' (no
// affiliate of its own), talking to the reference server in process. Each event of the path
// becomes what the user does:
//   IMPERSONATION.RESTORED P1      the page opens in a tab that viewed as P1 (its choice kept in
//                                  sessionStorage), on / where that choice led: a reload
//   IMPERSONATION.RESTORED ''      the page opens with nothing kept, on /affiliate/T2 (an
//                                  affiliate of the superuser's own view in neither affiliate's)
//   IMPERSONATION.SELECT P1 / C1   types part of the affiliate's name into 'View as Affiliate'
//                                  and chooses its option
//   IMPERSONATION.SELECT ''        chooses 'Own view (all affiliates)' there, or presses
//                                  'Stop viewing as {name}' (the `ownView` option says which)
// Every path ends with Logout: the login form, no 'Viewing as' line, no impersonation left in the
// session (the machine ran inside the signed-in state and ended with it), and no choice kept.
// Before and after every step the page must show the step's state:
//   none       no 'Viewing as' line; 'View as Affiliate' on its own view; the dashboard of the
//              superuser's own view (every affiliate in its 'Affiliate' selector) whose calls
//              carry no impersonate_affiliate
//   selected   'View as Affiliate' showing the affiliate; 'Viewing as {name}' with its Stop button;
//              the location /; the heading '{name} Sales Dashboard'; the 'Affiliate' selector
//              with the affiliate's own view (P1 and its children; none for C1, alone); every
//              dashboard call since the step carrying impersonate_affiliate={id}
// The session's impersonation actor (the signed-in state's child) must be in the step's state too.
import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import type { EventObject } from 'xstate';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { VIEW_AS_KEY } from '../../src/domain/view-as-choice.ts';
import type { ImpersonationEvent } from '../../machines/impersonation.ts';
import { AppRoutes } from '../../src/app/app.tsx';
import { SiteHeader } from '../../src/app/layout/site-header.tsx';
import type { Session } from '../../src/session/session.ts';
import { TOKEN_STORAGE_KEY } from '../../src/domain/auth-token.ts';
import { addFixtures, createTestServer, signIn, TEST_ORIGIN, type TestServer } from '../utils/api-server.ts';
import { optionTexts } from '../utils/options.ts';
import { renderWithSession } from '../utils/render-session.tsx';
import type { MachinePath } from './coverage.ts';
import { dashboardTexts } from './dashboard-words.ts';
import { impersonationControls, impersonationTexts } from './impersonation-words.ts';
import { stateLabel } from './paths.ts';

/** How long the page may take to show a state (a server call, a lazy chunk, a re-render). */
const SCREEN_TIMEOUT_MS = 3_000;
/** The first screen also waits for the page's and the chart's lazy code, slow on a busy machine. */
const FIRST_SCREEN_TIMEOUT_MS = 15_000;

/** How the user goes back to the own view: the selector's first option, or the Stop button. */
export type OwnViewControl = 'option' | 'stop';
export const ownViewControls: readonly OwnViewControl[] = ['option', 'stop'];

/** Where a path starts with nothing kept, and where a reload of a tab that viewed as an affiliate does. */
const START_PATH = '/affiliate/T2';
const RELOAD_PATH = '/';
/** The header's words (impersonation-words.ts), as the steps say them. */
const VIEW_AS = impersonationControls.viewAs.text;
const OWN_VIEW_OPTION = impersonationControls.ownView.text;
const viewingAs = (name: string) => `${impersonationTexts.viewingAs.text} ${name}`;
const stopViewingAs = (name: string) => `${impersonationControls.stop.text} ${name}`;
const DASHBOARD_CALLS = ['affiliates', 'payment_events', 'connection_fees'] as const;

interface Call {
  path: string;
  impersonate: string | null;
}

/** The affiliates each view shows in the dashboard's 'Affiliate' selector (by id). */
const viewOf: Record<string, string[]> = {
  own: ['C1', 'C2', 'P1', 'T2'],
  P1: ['C1', 'C2', 'P1'],
  C1: ['C1'],
};

export interface ImpersonationDriver {
  /** Runs the path's events, checking the page before and after each. */
  run(path: MachinePath): Promise<void>;
}

export async function startImpersonationDriver({ ownView = 'option' }: { ownView?: OwnViewControl } = {}): Promise<ImpersonationDriver> {
  const server: TestServer = createTestServer({ now: Date.now() });
  const fixtures = addFixtures(server.db, { now: server.clock.now() });
  const admin = fixtures.users.admin;
  const pair = await signIn(server, admin.username, admin.password);
  window.localStorage.setItem(TOKEN_STORAGE_KEY, JSON.stringify({ username: admin.username, ...pair }));
  const names = Object.fromEntries(
    (server.db.prepare('SELECT affiliate_id AS id, name FROM affiliates').all() as { id: string; name: string }[]).map(({ id, name }) => [
      id,
      name,
    ]),
  );
  const nameOf = (id: string) => names[id] ?? id;

  /** Every API call the page made, in order. */
  const calls: Call[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : 'url' in input ? input.url : input.href, TEST_ORIGIN);
    calls.push({ path: url.pathname.replace(/^\/api\/v2\//, ''), impersonate: url.searchParams.get('impersonate_affiliate') });
    return server.fetch(input, init);
  };

  let location = memoryLocation({ path: START_PATH, record: true });
  let user: UserEvent | null = null;
  let session: Session | null = null;
  /** The views (an affiliate viewed as, or null: the own view) whose dashboard the page showed. */
  const seenViews = new Set<string | null>();

  const dashboardCallsSince = (from: number) =>
    calls.slice(from).filter((call) => DASHBOARD_CALLS.some((path) => call.path === `${path}/`));

  /** Waits until the page shows `state`, reached by `event`; `from` is where the step's calls start. */
  async function expectPage(state: MachinePath['state'], from: number, when: string) {
    const affiliateId = (state.context as { affiliateId: string | null }).affiliateId;
    const check = () => {
      expect(session?.impersonation()?.getSnapshot().value, "the session's impersonation").toEqual(state.value);
      expect(session?.impersonation()?.getSnapshot().context.affiliateId, "the session's impersonation").toBe(affiliateId);
      if (affiliateId === null) expect(screen.queryByText(/^Viewing as /), "no 'Viewing as' line").not.toBeInTheDocument();
      else expect(screen.getByText(viewingAs(nameOf(affiliateId)))).toBeInTheDocument();
      const viewAs = screen.getByRole('combobox', { name: VIEW_AS });
      expect(viewAs).toBeEnabled();
      expect(viewAs).toHaveValue(affiliateId ? nameOf(affiliateId) : OWN_VIEW_OPTION);
      expect(viewAs).toHaveAttribute('aria-expanded', 'false');

      const path = location.history.at(-1);
      const routeAffiliate = path?.startsWith('/affiliate/') ? path.slice('/affiliate/'.length) : null;
      if (affiliateId !== null) {
        expect(screen.getByRole('button', { name: stopViewingAs(nameOf(affiliateId)) })).toBeInTheDocument();
        expect(path, 'a chosen affiliate starts at its dashboard').toBe('/');
      } else {
        expect(screen.queryByRole('button', { name: /^Stop viewing as / })).not.toBeInTheDocument();
      }
      const headingAffiliate = routeAffiliate ?? affiliateId;
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
        headingAffiliate ? `${nameOf(headingAffiliate)} ${dashboardTexts.heading.text}` : dashboardTexts.heading.text,
      );
      const view = viewOf[affiliateId ?? 'own'] ?? [];
      if (view.length > 1) {
        const options = optionTexts(screen.getByLabelText('Affiliate'));
        expect(options, "the dashboard's affiliates").toEqual(['All affiliates', ...view.map(nameOf).sort((a, b) => a.localeCompare(b))]);
      } else {
        expect(screen.queryByLabelText('Affiliate'), "no 'Affiliate' selector with one affiliate").not.toBeInTheDocument();
      }
      expect(screen.getByRole('region', { name: 'Summary' }).closest('.dashboard__content')).toHaveAttribute('aria-busy', 'false');
      // A view seen before in the path is cached (server data stays fresh for 5 minutes).
      const made = dashboardCallsSince(from);
      // The header lists every affiliate, the superuser's own view, once, as the page opens.
      const headerList = from === 0 ? made.findIndex((call) => call.path === 'affiliates/' && call.impersonate === null) : -1;
      if (headerList >= 0) made.splice(headerList, 1);
      if (!seenViews.has(affiliateId))
        expect(
          made.map((call) => call.path),
          "the dashboard's calls of a new view",
        ).toContain('payment_events/');
      for (const call of made)
        expect(call, 'impersonate_affiliate on each dashboard call').toEqual({ path: call.path, impersonate: affiliateId });
    };
    try {
      await waitFor(check, { timeout: when.startsWith('At first') ? FIRST_SCREEN_TIMEOUT_MS : SCREEN_TIMEOUT_MS });
      seenViews.add(affiliateId);
    } catch (failure) {
      if (failure instanceof Error) failure.message = `${when}, the page does not show ${stateLabel(state)}: ${failure.message}`;
      throw failure;
    }
  }

  /** What the user does for `event`; `current` is the affiliate viewed as before it. */
  async function perform(event: ImpersonationEvent, current: string | null) {
    if (!user) throw new Error('The page is not rendered');
    switch (event.type) {
      case 'IMPERSONATION.SELECT':
        if (event.affiliateId !== '') {
          // The name's last word, as typed: enough to find it.
          const name = nameOf(event.affiliateId);
          await user.click(screen.getByRole('combobox', { name: VIEW_AS }));
          await user.keyboard(name.split(' ').at(-1) ?? name);
          await user.click(screen.getByRole('option', { name: new RegExp(`^${name} ${event.affiliateId}\\b`) }));
        } else if (ownView === 'stop' && current !== null) {
          await user.click(screen.getByRole('button', { name: stopViewingAs(nameOf(current)) }));
        } else {
          await user.click(screen.getByRole('combobox', { name: VIEW_AS }));
          await user.click(screen.getByRole('option', { name: OWN_VIEW_OPTION }));
        }
        break;
      case 'IMPERSONATION.RESTORED':
        throw new Error("The tab's choice comes back only as the page opens");
    }
  }

  /** Logout ends the session, and viewing as an affiliate with it. */
  async function logOut(when: string) {
    if (!user) throw new Error('The page is not rendered');
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    try {
      await waitFor(
        () => {
          expect(screen.getByLabelText('Email or Username')).toBeInTheDocument();
          expect(screen.queryByLabelText(VIEW_AS)).not.toBeInTheDocument();
          expect(screen.queryByText(/^Viewing as /), "no 'Viewing as' line").not.toBeInTheDocument();
          expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
          expect(session?.impersonation(), "the session's impersonation ended").toBeNull();
          expect(window.sessionStorage.getItem(VIEW_AS_KEY), "the tab's choice forgotten").toBeNull();
        },
        { timeout: SCREEN_TIMEOUT_MS },
      );
    } catch (failure) {
      if (failure instanceof Error) failure.message = `${when}, Logout does not end the session: ${failure.message}`;
      throw failure;
    }
  }

  return {
    async run(path) {
      const [first, restore, ...steps] = path.steps;
      if (!first || restore?.event.type !== 'IMPERSONATION.RESTORED') throw new Error("A path starts with the tab's choice coming back");
      // The tab's choice as a reload finds it, made by the user signed in.
      const kept = (restore.event as ImpersonationEvent).affiliateId;
      if (kept === '') window.sessionStorage.removeItem(VIEW_AS_KEY);
      else window.sessionStorage.setItem(VIEW_AS_KEY, JSON.stringify([admin.username, kept]));
      location = memoryLocation({ path: kept === '' ? START_PATH : RELOAD_PATH, record: true });
      const rendered = renderWithSession(
        <Router hook={location.hook}>
          <SiteHeader />
          <AppRoutes />
        </Router>,
        { server: { ...server, fetch } },
      );
      user = rendered.user;
      session = rendered.session;
      await expectPage(restore.state, 0, `At first (step 1, ${restore.event.type}${payloadOf(restore.event)})`);
      for (const [index, { event, state }] of steps.entries()) {
        const before = (path.steps[index + 1]?.state.context as { affiliateId: string | null }).affiliateId;
        const from = calls.length;
        await perform(event as ImpersonationEvent, before);
        await expectPage(state, from, `After step ${index + 2} (${event.type}${payloadOf(event)})`);
      }
      await logOut(`After step ${steps.length + 2} (Logout)`);
    },
  };
}

const payloadOf = (event: EventObject) => {
  const payload = Object.entries(event).filter(([key]) => key !== 'type');
  return payload.length === 0 ? '' : ` ${payload.map(([key, value]) => `${key} ${JSON.stringify(value)}`).join(', ')}`;
};
