// The invite page in words (see steps.ts): what each state of the invite registration machine
// shows, what a person types into the 'Join' form for each sample, and how each answer of the
// server comes about. The model-based suite (invite-driver.tsx), `npm run paths -- --steps` and
// the browser runner read them from here.
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { InviteRegistrationContext, InviteRegistrationEvent } from '../../machines/invite-registration.ts';
import { ApiError, messages } from '../../src/api/client.ts';
import { formErrors, type RegistrationForm } from '../../src/domain/registration.ts';
import { authTexts } from './auth-words.ts';
import type { InviteInvokeId, InviteOutcome } from './invite-paths.ts';
import { serverTexts } from './invite-paths.ts';
import { screenName, screenSays, type ScreenWords } from './screen-words.ts';
import { described, listed, NoWordsError, own, q, w, type MachineWords, type Quote, type Words } from './steps.ts';

export const inviteTexts = {
  validating: described('Validating invite...', 'A validating spinner first'),
  invalidHeading: q('Invalid Invite'),
  join: q('Join'),
  creating: q('Creating Account...'),
} as const;

export const inviteControls = {
  email: q('Email'),
  password: q('Password'),
  confirmPassword: q('Confirm Password'),
  create: q('Create Account'),
  goToLogin: q('Go to Login'),
  retry: q('Retry'),
  backToLogin: q('Back to Login'),
} as const;

/** The form's fields by the registration form's keys. */
export const fieldLabels: Record<keyof RegistrationForm, Quote> = {
  email: inviteControls.email,
  password: inviteControls.password,
  confirmPassword: inviteControls.confirmPassword,
};

const c = inviteControls;
const t = inviteTexts;

/** What the page shows in each state; the success screen is the login gate's, at /. */
export function inviteScreenOf(snapshot: AnyMachineSnapshot): ScreenWords {
  const context = snapshot.context as InviteRegistrationContext;
  switch (true) {
    case snapshot.matches('validating'):
      return { status: t.validating };
    case snapshot.matches('invalid'):
      return { heading: t.invalidHeading, enabled: [c.goToLogin], noButtons: [c.retry] };
    case snapshot.matches('unavailable'):
      return { heading: t.invalidHeading, enabled: [c.goToLogin, c.retry] };
    case snapshot.matches('form'):
      return {
        heading: t.join,
        headingThen: { said: "the invite's affiliate name", value: context.affiliateName },
        enabled: [c.backToLogin, c.create],
        noButtons: [t.creating],
      };
    case snapshot.matches('submitting'):
      return {
        heading: t.join,
        headingThen: { said: "the invite's affiliate name", value: context.affiliateName },
        enabled: [c.backToLogin],
        disabled: [t.creating],
        noButtons: [c.create],
      };
    case snapshot.matches('success'):
      return { heading: authTexts.setupRequiredHeading, status: authTexts.newAccount };
  }
  throw new NoWordsError(`no screen is known for the invite page's state ${JSON.stringify(snapshot.value)} (tests/model/invite-words.ts)`);
}

/** The server's texts the form shows as they come (the spec: field errors per field, non_field_errors as a general error). */
const ownTexts: Record<string, string> = {
  [serverTexts.emailTaken]: "the server's field error, shown under its field",
  [serverTexts.passwordTooShort]: "the server's field error, shown under its field",
  [serverTexts.inviteUsed]: "the server's non_field_errors, shown as the general error",
  [messages.network]: "the browser's failed call, which the spec does not name",
};
const quoteOf = (text: string): Quote => (ownTexts[text] ? own(text, ownTexts[text]) : q(text));

/** The alerts in the state: every field's message, then the general error line. */
export function inviteAlertsOf(snapshot: AnyMachineSnapshot): Quote[] {
  if (snapshot.matches('success')) return [];
  const context = snapshot.context as InviteRegistrationContext;
  return [...Object.values(context.fieldErrors), ...(context.error ? [context.error] : [])].map(quoteOf);
}

// --- The answers and what the person types ---------------------------------------------------------

export const isInviteOutcome = (event: EventObject): event is InviteOutcome =>
  event.type.startsWith('xstate.done.actor.') || event.type.startsWith('xstate.error.actor.');
export const invokeIdOf = (event: InviteOutcome) => event.type.replace(/^xstate\.(done|error)\.actor\./, '') as InviteInvokeId;
const isDone = (event: InviteOutcome) => event.type.startsWith('xstate.done.actor.');

/** How a failure is brought about. */
export type InviteFault =
  | { kind: 'missingInvite' }
  | { kind: 'network' }
  /** Field errors of a 400 the user's input brings about (what the user step types). */
  | { kind: 'takenEmail' }
  | { kind: 'shortPassword' }
  /** The invite is used by someone else between Create Account and the server's check. */
  | { kind: 'inviteUsed' };

export function inviteFaultOf(outcome: InviteOutcome): InviteFault | null {
  if (isDone(outcome)) return null;
  const { error } = outcome as { error: unknown };
  if (!(error instanceof ApiError)) throw new NoWordsError(`no real way to fail with ${String(error)}`);
  if (error.kind === 'network') return { kind: 'network' };
  if (error.status === 404) return { kind: 'missingInvite' };
  const fields = error.fieldErrors();
  if (error.status === 400 && fields.email) return { kind: 'takenEmail' };
  if (error.status === 400 && fields.password) return { kind: 'shortPassword' };
  if (error.status === 400 && fields.non_field_errors) return { kind: 'inviteUsed' };
  throw new NoWordsError(`no real way to fail with '${error.message}'`);
}

/** The API path each invoke calls (the lookup's with the invite's id). */
export const inviteCallWords: Record<InviteInvokeId, string> = {
  lookupInvite: 'affiliates/invites/{inviteId}/',
  register: 'affiliates/invites/register/',
};

/** A password that passes the client's rules and is too short for the server (and not a common one). */
export const SHORT_PASSWORD = 'Qx7#kz';

type SubmitEvent = Extract<InviteRegistrationEvent, { type: 'REGISTRATION.SUBMIT' }>;

/** What the user types for a submit: the sample, adjusted to bring about the register outcome ahead; `takenEmail` is an existing account's. */
export function formFor(event: SubmitEvent, ahead: InviteOutcome | undefined, takenEmail: string): RegistrationForm {
  const sample = { email: event.email, password: event.password, confirmPassword: event.confirmPassword };
  if (Object.keys(formErrors(sample)).length > 0 || !ahead) return sample;
  const fault = inviteFaultOf(ahead);
  if (fault?.kind === 'takenEmail') return { ...sample, email: takenEmail };
  // Too short and nothing else: 'short1' is also a common password.
  if (fault?.kind === 'shortPassword') return { ...sample, password: SHORT_PASSWORD, confirmPassword: SHORT_PASSWORD };
  return sample;
}

/** What is typed into each field, in words. */
function formWords(event: SubmitEvent, ahead: InviteOutcome | undefined): Words {
  const fault = ahead ? inviteFaultOf(ahead) : null;
  const typed = formFor(event, ahead, '(taken)');
  const email =
    typed.email === '' ? null : fault?.kind === 'takenEmail' ? 'the e-mail address of an existing account' : 'a new e-mail address';
  const password =
    typed.password === ''
      ? null
      : fault?.kind === 'shortPassword'
        ? `a password of ${SHORT_PASSWORD.length} characters`
        : 'a strong password';
  const confirm =
    typed.confirmPassword === '' ? null : typed.confirmPassword === typed.password ? 'the same password' : 'a different password';
  const fields: Words[] = [
    ...(email ? [w`${email} into ${c.email}`] : []),
    ...(password ? [w`${password} into ${c.password}`] : []),
    ...(confirm ? [w`${confirm} into ${c.confirmPassword}`] : []),
  ];
  const empty = (Object.keys(fieldLabels) as (keyof RegistrationForm)[])
    .filter((field) => typed[field] === '')
    .map((field) => fieldLabels[field]);
  const typing: Words = fields.length > 0 ? ['type ', listed(fields)] : '';
  const leaving: Words = empty.length > 0 ? ['leave ', listed(empty), ' empty'] : '';
  return [typing, typing && leaving ? ', ' : '', leaving, ', press ', c.create];
}

/** The circumstances the outcomes ahead need, in words. */
function arrangedBy(outcomes: readonly EventObject[]): Words[] {
  return outcomes.filter(isInviteOutcome).flatMap((outcome): Words[] => {
    const fault = inviteFaultOf(outcome);
    if (fault?.kind === 'network') return [`with the connection lost as ${inviteCallWords[invokeIdOf(outcome)]} is called`];
    if (fault?.kind === 'inviteUsed') return ['after someone else used the invite meanwhile'];
    return [];
  });
}

/** The invite link the path opens: valid, or one the server does not know (unknown, expired or used). */
export function openingWords(outcomes: readonly EventObject[]): Words {
  const lookup = outcomes.filter(isInviteOutcome).find((outcome) => invokeIdOf(outcome) === 'lookupInvite');
  const missing = lookup && inviteFaultOf(lookup)?.kind === 'missingInvite';
  const link = missing ? 'an invite link that is unknown, expired or used' : 'a valid invite link (/invite/{inviteId})';
  const circumstances = arrangedBy(outcomes);
  return [`open ${link}, signed out`, circumstances.length > 0 ? [', ', listed(circumstances)] : ''];
}

function does(event: EventObject, _from: AnyMachineSnapshot, outcomes: readonly EventObject[]): Words {
  const inviteEvent = event as InviteRegistrationEvent;
  const circumstances = arrangedBy(outcomes);
  const action = ((): Words => {
    switch (inviteEvent.type) {
      case 'INVITE.RETRY':
        return w`press ${c.retry}`;
      case 'REGISTRATION.SUBMIT': {
        const ahead = outcomes.filter(isInviteOutcome).find((outcome) => invokeIdOf(outcome) === 'register');
        return formWords(inviteEvent, ahead);
      }
    }
    throw new NoWordsError(`no words for the event ${event.type}`);
  })();
  return circumstances.length === 0 ? action : [action, ', ', listed(circumstances)];
}

export const inviteWords: MachineWords = {
  isOutcome: isInviteOutcome,
  opening: (_path, outcomes) => openingWords(outcomes),
  screen: (state) => screenName(inviteScreenOf(state)),
  sees: (state) => screenSays(inviteScreenOf(state), inviteAlertsOf(state)),
  does,
};
