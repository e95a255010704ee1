// Drives one generated path of the invite registration machine (tests/model/invite-paths.ts)
// through the real invite page, in a real session, talking to the reference server in process.
// Each event of the path becomes something real:
//   REGISTRATION.SUBMIT   the user types the form and presses Create Account
//   INVITE.RETRY          the user presses Retry after a failed lookup
//   lookupInvite          GET affiliates/invites/{id}/: the fixtures' valid invite for a done; an
//                         unknown, expired or used one for the 404; a network fault otherwise
//   register              POST affiliates/invites/register/: the real registration for a done; a
//                         taken e-mail address or a too-short password for the field errors; the
//                         invite used meanwhile for non_field_errors; a network fault otherwise
// A call is held from the step that starts it (so its pending screen can be seen) until its
// outcome step. Before and after every step the page must show the path's state: its screen, the
// machine's messages on the page's error lines, what the user typed still in the form, and the
// token stored (and the location /) exactly on success.
import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { InviteRegistrationContext, InviteRegistrationEvent } from '../../machines/invite-registration.ts';
import { readClaims, TOKEN_STORAGE_KEY, type StoredToken } from '../../src/domain/auth-token.ts';
import { passwordRules, type RegistrationForm } from '../../src/domain/registration.ts';
import { AuthGate } from '../../src/features/auth/auth-gate.tsx';
import InvitePage from '../../src/features/invite/invite-page.tsx';
import { addFixtures, createTestServer, type Fixtures } from '../utils/api-server.ts';
import { renderWithSession, steerableServer } from '../utils/render-session.tsx';
import { invokesOf, type MachinePath } from './coverage.ts';
import type { InviteInvokeId, InviteOutcome } from './invite-paths.ts';
import {
  fieldLabels,
  formFor,
  invokeIdOf,
  inviteAlertsOf,
  inviteControls,
  inviteFaultOf,
  inviteScreenOf,
  isInviteOutcome,
} from './invite-words.ts';
import { stateLabel } from './paths.ts';
import { button, checkScreenWords, shownAlerts, statusTexts } from './screen-checks.ts';
import type { Quote } from './steps.ts';

/** How long a screen may take to appear after a step (a server call, a re-render). */
const SCREEN_TIMEOUT_MS = 3_000;

/** Which 404 a lookup error path meets: an id the server never issued, or an expired or used one. */
export type MissingInvite = 'unknown' | 'expired' | 'used';
export const missingInvites: readonly MissingInvite[] = ['unknown', 'expired', 'used'];
const UNKNOWN_INVITE = '00000000-0000-4000-8000-000000000000';

const REGISTER_CALL = 'affiliates/invites/register/';
const lookupCall = (inviteId: string) => `affiliates/invites/${inviteId}/`;

type SubmitEvent = Extract<InviteRegistrationEvent, { type: 'REGISTRATION.SUBMIT' }>;

/** What describes a field with no message: the password rules for Password, nothing for the others. */
const describedWithoutError: Partial<Record<keyof RegistrationForm, string>> = { password: passwordRules.join(' ') };

/** The three fields hold what was typed; each shows its own message, or none. */
function checkFields(typed: RegistrationForm, errors: InviteRegistrationContext['fieldErrors']) {
  for (const [field, label] of Object.entries(fieldLabels) as [keyof RegistrationForm, Quote][]) {
    const input = screen.getByLabelText(label.text);
    expect(input, `${label.text} keeps what was typed`).toHaveValue(typed[field]);
    const message = errors[field];
    if (message) {
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(input).toHaveAccessibleDescription(message);
    } else {
      expect(input).not.toHaveAttribute('aria-invalid');
      const description = describedWithoutError[field];
      if (description) expect(input).toHaveAccessibleDescription(description);
      else expect(input).not.toHaveAccessibleDescription();
    }
  }
}

const storedRecord = () => window.localStorage.getItem(TOKEN_STORAGE_KEY);

// --- The driver -------------------------------------------------------------------------------

export interface InviteDriver {
  /** Runs the path's events, checking the screen before and after each. */
  run(path: MachinePath): Promise<void>;
}

/** The invite the path's lookup meets. */
function inviteIdFor(path: MachinePath, invites: Fixtures['invites'], missing: MissingInvite): string {
  const first = path.steps[1]?.event;
  if (!first || !isInviteOutcome(first) || inviteFaultOf(first)?.kind !== 'missingInvite') return invites.valid;
  return missing === 'unknown' ? UNKNOWN_INVITE : invites[missing];
}

export function startInviteDriver(options: { missingInvite?: MissingInvite } = {}): InviteDriver {
  const server = createTestServer({ now: Date.now() });
  const fixtures = addFixtures(server.db, { now: server.clock.now() });
  const steer = steerableServer(server);
  /** The releases of the calls held now, by path. */
  const held = new Map<string, () => void>();
  const empty: RegistrationForm = { email: '', password: '', confirmPassword: '' };
  /** What the form holds now. */
  let typed: RegistrationForm = empty;
  let user: UserEvent | null = null;
  let inviteId = fixtures.invites.valid;
  let location = memoryLocation({ path: `/invite/${inviteId}`, record: true });

  const currentPath = () => location.history.at(-1);

  function hold(call: string) {
    if (!held.has(call)) held.set(call, steer.hold(call));
  }
  function release(call: string) {
    const releaseCall = held.get(call);
    if (!releaseCall) throw new Error(`${call} is not held: the outcome step has no call to answer`);
    held.delete(call);
    releaseCall();
  }
  const callOf = (id: InviteInvokeId) => (id === 'lookupInvite' ? lookupCall(inviteId) : REGISTER_CALL);

  /** Holds every call the states from `steps[index]` up to the next user event start. */
  function holdCalls(steps: MachinePath['steps'], index: number) {
    for (let at = index; at < steps.length && (at === index || isInviteOutcome(steps[at]!.event)); at += 1) {
      for (const invoke of invokesOf(steps[at]!.state)) hold(callOf(invoke.id as InviteInvokeId));
    }
  }

  function settle(outcome: InviteOutcome) {
    const call = callOf(invokeIdOf(outcome));
    const fault = inviteFaultOf(outcome);
    if (fault?.kind === 'network') steer.failNext(call);
    if (fault?.kind === 'inviteUsed') {
      server.db.prepare('UPDATE invites SET used_at = ? WHERE id = ?').run(server.clock.now(), inviteId);
    }
    release(call);
  }

  async function submit(event: SubmitEvent, ahead: InviteOutcome | undefined) {
    if (!user) throw new Error('The page is not rendered');
    const form = formFor(event, ahead, fixtures.users.parent.email);
    for (const [field, label] of Object.entries(fieldLabels) as [keyof RegistrationForm, Quote][]) {
      const input = screen.getByLabelText(label.text);
      // What a previous attempt left in the form stays there: type over it.
      await user.clear(input);
      if (form[field] !== '') await user.type(input, form[field]);
    }
    typed = form;
    await user.click(button(inviteControls.create.text));
  }

  /** Waits until the page shows `snapshot`'s state. */
  async function expectScreenOf(snapshot: AnyMachineSnapshot) {
    const context = snapshot.context as InviteRegistrationContext;
    const words = inviteScreenOf(snapshot);
    const alerts = inviteAlertsOf(snapshot).map((alert) => alert.text);
    const check = () => {
      checkScreenWords(words);
      expect(shownAlerts().sort()).toEqual(alerts.sort());
      if (snapshot.matches('success')) {
        // Registered: the new account's token is stored, and / shows the login gate's 2FA set-up,
        // saying first that the account is created.
        expect(currentPath()).toBe('/');
        const stored = JSON.parse(storedRecord() ?? 'null') as StoredToken | null;
        expect(stored?.username).toBe(typed.email.trim());
        const claims = stored ? readClaims(stored.access) : null;
        expect(claims).not.toBeNull();
        expect(claims?.['2fa_method'] ?? null).toBeNull();
        expect(claims?.is_2fa_verified).toBe(false);
        expect(typeof stored?.refresh).toBe('string');
        return;
      }
      expect(currentPath()).toBe(`/invite/${inviteId}`);
      expect(storedRecord(), 'no token is stored before registering').toBeNull();
      // The screen's one status line, or none.
      expect(statusTexts()).toEqual(words.status ? [words.status.text] : []);
      if (snapshot.matches('validating')) expect(screen.queryByRole('heading')).not.toBeInTheDocument();
      if (snapshot.matches('form') || snapshot.matches('submitting')) checkFields(typed, context.fieldErrors);
    };
    try {
      await waitFor(check, { timeout: SCREEN_TIMEOUT_MS });
    } catch (failure) {
      if (failure instanceof Error) failure.message = `The page does not show ${stateLabel(snapshot)}: ${failure.message}`;
      throw failure;
    }
  }

  return {
    async run(path) {
      const { steps } = path;
      inviteId = inviteIdFor(path, fixtures.invites, options.missingInvite ?? 'unknown');
      location = memoryLocation({ path: `/invite/${inviteId}`, record: true });
      typed = empty;
      // The lookup starts as the page renders: hold it first.
      holdCalls(steps, 0);
      const rendered = renderWithSession(
        <Router hook={location.hook}>
          <Switch>
            <Route path="/invite/:inviteId">{(params) => <InvitePage inviteId={params.inviteId} />}</Route>
            <Route>
              <AuthGate>
                <p>Portal content</p>
              </AuthGate>
            </Route>
          </Switch>
        </Router>,
        { server: steer.server },
      );
      user = rendered.user;
      for (let index = 1; index < steps.length; index += 1) {
        const from = steps[index - 1]!.state;
        const { event, state } = steps[index]!;
        await expectScreenOf(from);
        if (isInviteOutcome(event)) {
          settle(event);
        } else {
          holdCalls(steps, index);
          const userEvent = event as InviteRegistrationEvent;
          const next = steps[index + 1]?.event;
          if (userEvent.type === 'INVITE.RETRY') await user?.click(button(inviteControls.retry.text));
          else await submit(userEvent, next && isInviteOutcome(next) ? next : undefined);
        }
        await expectScreenOf(state);
      }
      await expectScreenOf(path.state);
    },
  };
}
