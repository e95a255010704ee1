// The invite registration machine's model: every event it can meet, with realistic samples, and
// the paths generated from the real machine (machines/invite-registration.ts). `npm run paths`
// prints them; the model-based suite (invite-ui.test.tsx) turns each into a test, with a path
// more for each sample the generated ones leave out (every-sample.ts).
//   User events      the 'Join' form submitted: complete, or breaking each client rule; Retry
//                    after a lookup that failed for another reason than an invalid invite
//   Actor outcomes   xstate.done.actor.<id> / xstate.error.actor.<id> for lookupInvite and
//                    register, with answers and error texts exactly as the reference server (in
//                    process, tests/utils/api-server.ts) and src/api/invites.ts give them
import { inviteRegistrationMachine, type InviteRegistrationEvent } from '../../machines/invite-registration.ts';
import { ApiError, httpErrorText, messages } from '../../src/api/client.ts';
import { INVITE_NOT_FOUND } from '../../src/api/invites.ts';
import type { Invite, RegistrationResponse } from '../../src/api/schemas.ts';
import { registrationMessages, type RegistrationForm } from '../../src/domain/registration.ts';
import { expiresIn, makeTokenPair, partialClaims } from '../utils/tokens.ts';
import { withEverySampleSent } from './every-sample.ts';
import { generatePaths, noted, type MachineModel, type ModelPaths } from './paths.ts';

export const inviteInvokeIds = ['lookupInvite', 'register'] as const;
export type InviteInvokeId = (typeof inviteInvokeIds)[number];

export interface InviteDoneEvent<TOutput = unknown> {
  type: `xstate.done.actor.${InviteInvokeId}`;
  output: TOutput;
}
export interface InviteErrorEvent {
  type: `xstate.error.actor.${InviteInvokeId}`;
  error: unknown;
}
export type InviteOutcome = InviteDoneEvent | InviteErrorEvent;
export type InviteModelEvent = InviteRegistrationEvent | InviteOutcome;

/** The reference server's texts for a refused registration (server/routes/affiliates.ts). */
export const serverTexts = {
  emailTaken: 'A user with that email already exists.',
  passwordTooShort: 'This password is too short. It must contain at least 8 characters.',
  inviteUsed: 'This invite is invalid or has expired.',
} as const;

/** The fixtures' valid invite is C2's (tests/utils/api-server.ts addFixtures). */
export const VALID_INVITE_AFFILIATE = 'Child Two';

/** A form that passes the client rules. */
export const completeForm: RegistrationForm = {
  email: 'new.affiliate@fixtures.example',
  password: 'correct-horse-battery',
  confirmPassword: 'correct-horse-battery',
};

const submit = (form: Partial<RegistrationForm>, note: string): InviteRegistrationEvent =>
  noted({ type: 'REGISTRATION.SUBMIT', ...completeForm, ...form }, note);

const done = <TOutput>(id: InviteInvokeId, output: TOutput, note: string): InviteDoneEvent<TOutput> =>
  noted({ type: `xstate.done.actor.${id}`, output }, `output: ${note}`);
const failed = (id: InviteInvokeId, error: ApiError, note: string): InviteErrorEvent =>
  noted(
    { type: `xstate.error.actor.${id}`, error },
    `error: ${note} '${error.message}'${error.body ? ` ${JSON.stringify(error.body)}` : ''}`,
  );

/** A 400 as src/api/client.ts reports it: the generic text, the field errors on the error. */
const badRequest = (body: Record<string, string[]>) => new ApiError(httpErrorText(400, 'Bad Request'), 'http', 400, body);

/**
 * The samples; `now` (milliseconds) is the moment the registered token is minted from: the same
 * `now` gives the same events, however long the tests take between two calls.
 */
export function inviteEvents(now: number = Date.now()): InviteModelEvent[] {
  const invite: Invite = { affiliate: { name: VALID_INVITE_AFFILIATE } };
  const registered: RegistrationResponse = {
    user: { username: completeForm.email },
    tokens: makeTokenPair(
      { user_id: 6, username: completeForm.email, ...partialClaims(null), exp: expiresIn(600, now) },
      'refresh-registered',
    ),
  };
  return [
    // The 'Join' form.
    submit({}, 'email, password and the same password again'),
    submit({ email: '' }, `no email: '${registrationMessages.emailRequired}'`),
    submit({ password: '', confirmPassword: '' }, `no password: '${registrationMessages.passwordRequired}'`),
    submit({ confirmPassword: 'correct-horse-battery-2' }, `different passwords: "${registrationMessages.passwordsDiffer}"`),

    // GET affiliates/invites/{id}/
    done('lookupInvite', invite, `affiliate.name '${VALID_INVITE_AFFILIATE}'`),
    failed('lookupInvite', new ApiError(INVITE_NOT_FOUND, 'http', 404), '404'),
    failed('lookupInvite', new ApiError(messages.network, 'network'), 'network fault'),
    noted({ type: 'INVITE.RETRY' }, 'Retry'),

    // POST affiliates/invites/register/
    done('register', registered, 'user and tokens, no 2fa_method'),
    failed('register', badRequest({ email: [serverTexts.emailTaken] }), '400 email'),
    failed('register', badRequest({ password: [serverTexts.passwordTooShort] }), '400 password'),
    failed('register', badRequest({ non_field_errors: [serverTexts.inviteUsed] }), '400 non_field_errors'),
    failed('register', new ApiError(messages.network, 'network'), 'network fault'),
  ];
}

/** The model: the real machine, for an invite id, and the events above; the UI suite sends every sample. */
export function inviteModel(now: number = Date.now()): MachineModel {
  return {
    id: inviteRegistrationMachine.id,
    machine: inviteRegistrationMachine,
    input: { inviteId: 'invite-from-the-link' },
    events: inviteEvents(now),
    extraPaths: (generated) => withEverySampleSent(generated).slice(generated.paths.length),
  };
}

export function invitePaths(now: number = Date.now()): ModelPaths {
  return generatePaths(inviteModel(now));
}
