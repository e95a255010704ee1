// Replays a path of the invite registration machine in Chromium (scripts/paths-run.ts), as the
// jsdom driver (tests/model/invite-driver.tsx) does, with the same words
// (tests/model/invite-words.ts): the invite link opened (valid, or one the server does not know),
// the 'Join' form typed and sent, Retry; each call held until its outcome step, which lets the
// server answer (refusing a taken e-mail address or a short password), loses the connection, or
// has the invite used meanwhile (the run's own server only).
import type { AnyMachineSnapshot } from 'xstate';
import type { InviteRegistrationEvent } from '../machines/invite-registration.ts';
import { TOKEN_STORAGE_KEY } from '../src/domain/auth-token.ts';
import type { RegistrationForm } from '../src/domain/registration.ts';
import { invokesOf } from '../tests/model/coverage.ts';
import type { InviteInvokeId, InviteOutcome } from '../tests/model/invite-paths.ts';
import {
  fieldLabels,
  formFor,
  invokeIdOf,
  inviteAlertsOf,
  inviteControls,
  inviteFaultOf,
  inviteScreenOf,
  inviteWords,
  isInviteOutcome,
} from '../tests/model/invite-words.ts';
import type { BrowserRun } from './paths-browser-auth.ts';
import { expectScreen, FIRST_SCREEN_TIMEOUT_MS, ownServer, StepSkipped } from './paths-browser.ts';

/** An invite id the server never issued. */
const UNKNOWN_INVITE = '00000000-0000-4000-8000-000000000000';
const REGISTER_CALL = 'affiliates/invites/register/';

type SubmitEvent = Extract<InviteRegistrationEvent, { type: 'REGISTRATION.SUBMIT' }>;

export async function runInvitePath({ context, target, network, path, step }: BrowserRun): Promise<void> {
  const { steps } = path;
  const first = steps[1]?.event;
  const missing = first !== undefined && isInviteOutcome(first) && inviteFaultOf(first)?.kind === 'missingInvite';
  if (!missing && !target.inviteId) throw new StepSkipped('step 1: needs an unused invite: set PATHS_INVITE_ID');
  const inviteId = missing ? UNKNOWN_INVITE : target.inviteId!;
  const callOf = (id: InviteInvokeId) => (id === 'lookupInvite' ? `affiliates/invites/${inviteId}/` : REGISTER_CALL);
  const page = await context.newPage();
  let typed: RegistrationForm = { email: '', password: '', confirmPassword: '' };

  /** Holds every call the states from `steps[index]` up to the next user event start. */
  function holdCalls(index: number) {
    for (let at = index; at < steps.length && (at === index || isInviteOutcome(steps[at]!.event)); at += 1) {
      for (const invoke of invokesOf(steps[at]!.state)) network.hold(callOf(invoke.id as InviteInvokeId));
    }
  }

  function settle(outcome: InviteOutcome) {
    const call = callOf(invokeIdOf(outcome));
    const fault = inviteFaultOf(outcome);
    if (fault?.kind === 'network') return network.release(call, { kind: 'network' });
    if (fault?.kind === 'inviteUsed') {
      ownServer(target, 'the invite to be used by someone else meanwhile')
        .db.prepare('UPDATE invites SET used_at = ? WHERE id = ?')
        .run(Date.now(), inviteId);
    }
    network.release(call);
  }

  /** An existing account's address, for the server to refuse. */
  function takenEmail(): string {
    const account = Object.values(target.accounts).find((candidate) => candidate?.email);
    return account?.email ?? '';
  }

  async function submit(event: SubmitEvent, ahead: InviteOutcome | undefined) {
    const form = formFor(event, ahead, takenEmail());
    if (ahead && inviteFaultOf(ahead)?.kind === 'takenEmail' && form.email === '')
      throw new StepSkipped('needs the e-mail address of an existing account: set PATHS_TOTP_ADDRESS');
    // Against another portal a new address each time: registering uses it up.
    const fresh =
      !target.own && form.email !== '' && form.email !== takenEmail()
        ? { ...form, email: form.email.replace('@', `+${Date.now()}@`) }
        : form;
    for (const [field, label] of Object.entries(fieldLabels) as [keyof RegistrationForm, (typeof fieldLabels)['email']][]) {
      await page.getByLabel(label.text, { exact: true }).fill(fresh[field]);
    }
    typed = fresh;
    await page.getByRole('button', { name: inviteControls.create.text, exact: true }).click();
  }

  const check = (snapshot: AnyMachineSnapshot, event: (typeof steps)[number]['event'], first = false) => {
    const words = inviteScreenOf(snapshot);
    return expectScreen(
      page,
      inviteWords.sees(snapshot, event),
      words,
      inviteAlertsOf(snapshot).map((alert) => alert.text),
      {
        timeout: first ? FIRST_SCREEN_TIMEOUT_MS : undefined,
        also: async () => {
          const problems: string[] = [];
          const at = new URL(page.url()).pathname;
          const stored = await page.evaluate((key) => window.localStorage.getItem(key), TOKEN_STORAGE_KEY);
          if (snapshot.matches('success')) {
            if (at !== '/') problems.push('the address /');
            if (!stored?.includes(`"username":"${typed.email.trim()}"`)) problems.push("the new account's session stored");
            return problems;
          }
          if (at !== `/invite/${inviteId}`) problems.push(`the address /invite/${inviteId}`);
          if (stored !== null) problems.push('no session stored');
          if (snapshot.matches('form') || snapshot.matches('submitting')) {
            for (const [field, label] of Object.entries(fieldLabels) as [keyof RegistrationForm, (typeof fieldLabels)['email']][]) {
              const value = await page.getByLabel(label.text, { exact: true }).inputValue();
              if (value !== typed[field]) problems.push(`'${label.text}' keeping what was typed`);
            }
          }
          return problems;
        },
      },
    );
  };

  try {
    await step(0, async () => {
      // The lookup starts as the page opens: hold it first.
      holdCalls(0);
      await page.goto(`${target.url}/invite/${inviteId}`);
      await check(steps[0]!.state, steps[0]!.event, true);
    });
    for (let index = 1; index < steps.length; index += 1) {
      const { event, state } = steps[index]!;
      await step(index, async () => {
        if (isInviteOutcome(event)) {
          settle(event);
        } else {
          holdCalls(index);
          const userEvent = event as InviteRegistrationEvent;
          const next = steps[index + 1]?.event;
          if (userEvent.type === 'INVITE.RETRY') await page.getByRole('button', { name: inviteControls.retry.text, exact: true }).click();
          else await submit(userEvent, next && isInviteOutcome(next) ? next : undefined);
        }
        await check(state, event);
      });
    }
  } finally {
    network.releaseAll();
  }
}
