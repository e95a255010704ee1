// Invite registration, on /invite/{inviteId}: the invite is looked up, then its form creates the
// account. States:
//   validating   the invite is looked up: a validating spinner
//   invalid      'Invalid Invite' (the lookup answered 404): its message, and Go to Login
//   unavailable  the lookup failed otherwise (network, 5xx): its message, Retry and Go to Login
//   form         the 'Join' form showing the affiliate's name: Email, Password, Confirm Password;
//                the client rules are checked here, before anything is sent
//   submitting   'Creating Account...' while the account is created
//   success      the token is stored locally, and the user goes to /
import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { ApiError, errorText } from '../src/api/client.ts';
import type { RegistrationRequest } from '../src/api/request-schemas.ts';
import type { Invite, RegistrationResponse } from '../src/api/schemas.ts';
import type { StoredToken } from '../src/domain/auth-token.ts';
import {
  formErrors,
  refusedRegistration,
  type RegistrationFailure,
  type RegistrationFieldErrors,
  type RegistrationForm,
} from '../src/domain/registration.ts';

export interface InviteRegistrationContext {
  inviteId: string;
  /** The inviting affiliate's name, once the invite is found. */
  affiliateName: string | null;
  fieldErrors: RegistrationFieldErrors;
  /** The general error line; in `invalid`, why the invite cannot be used. */
  error: string | null;
}

export type InviteRegistrationEvent =
  | ({ type: 'REGISTRATION.SUBMIT' } & RegistrationForm)
  /** Retry after a lookup that failed for another reason than an invalid invite. */
  | { type: 'INVITE.RETRY' };

export interface InviteRegistrationInput {
  inviteId: string;
}

/**
 * A failed registration as the form shows it: a 400's field errors placed by the form's rules
 * (src/domain/registration.ts); any other failure as the general error with its message.
 */
export function registrationErrors(error: unknown): RegistrationFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ApiError) || error.status !== 400) return { fieldErrors: {}, error: message };
  return refusedRegistration(error.fieldErrors(), message);
}

const formOf = (event: Extract<InviteRegistrationEvent, { type: 'REGISTRATION.SUBMIT' }>): RegistrationForm => ({
  email: event.email,
  password: event.password,
  confirmPassword: event.confirmPassword,
});

export const inviteRegistrationMachine = setup({
  types: {
    context: {} as InviteRegistrationContext,
    input: {} as InviteRegistrationInput,
    events: {} as InviteRegistrationEvent,
  },
  actors: {
    lookupInvite: fromPromise<Invite, { inviteId: string }>(() => {
      throw new Error('lookupInvite is provided by the invite page');
    }),
    register: fromPromise<RegistrationResponse, RegistrationRequest>(() => {
      throw new Error('register is provided by the invite page');
    }),
  },
  guards: {
    /** Only a 404 says the invite itself is invalid or expired; anything else may pass. */
    isInviteNotFound: ({ event }) => 'error' in event && event.error instanceof ApiError && event.error.status === 404,
    isFormInvalid: ({ event }) => {
      assertEvent(event, 'REGISTRATION.SUBMIT');
      return Object.keys(formErrors(formOf(event))).length > 0;
    },
  },
  actions: {
    /** Stores the new session's token record; provided by the page. */
    storeSession: (_, _token: StoredToken) => {},
    /** Goes to /, where the login gate asks for 2FA set-up; provided by the page. */
    goHome: () => {},
    storeInvite: assign({ affiliateName: (_, invite: Invite) => invite.affiliate.name, error: null }),
    showLookupError: assign({ error: (_, text: string) => text }),
    showFormErrors: assign({
      fieldErrors: ({ event }) => {
        assertEvent(event, 'REGISTRATION.SUBMIT');
        return formErrors(formOf(event));
      },
      error: null,
    }),
    clearErrors: assign({ fieldErrors: {}, error: null }),
    showRegistrationErrors: assign({
      fieldErrors: (_, failure: RegistrationFailure) => failure.fieldErrors,
      error: (_, failure: RegistrationFailure) => failure.error,
    }),
  },
}).createMachine({
  id: 'inviteRegistration',
  context: ({ input }) => ({ inviteId: input.inviteId, affiliateName: null, fieldErrors: {}, error: null }),
  initial: 'validating',
  states: {
    validating: {
      tags: ['pending'],
      invoke: {
        id: 'lookupInvite',
        src: 'lookupInvite',
        input: ({ context }) => ({ inviteId: context.inviteId }),
        onDone: { target: 'form', actions: { type: 'storeInvite', params: ({ event }) => event.output } },
        onError: [
          {
            guard: 'isInviteNotFound',
            target: 'invalid',
            actions: { type: 'showLookupError', params: ({ event }) => errorText(event.error) },
          },
          { target: 'unavailable', actions: { type: 'showLookupError', params: ({ event }) => errorText(event.error) } },
        ],
      },
    },
    invalid: { type: 'final' },
    unavailable: {
      on: { 'INVITE.RETRY': { target: 'validating', actions: 'clearErrors' } },
    },
    form: {
      on: {
        'REGISTRATION.SUBMIT': [
          { guard: 'isFormInvalid', actions: 'showFormErrors' },
          { target: 'submitting', actions: 'clearErrors' },
        ],
      },
    },
    submitting: {
      tags: ['pending'],
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context, event }) => {
          assertEvent(event, 'REGISTRATION.SUBMIT');
          return { email: event.email.trim(), password: event.password, invite_id: context.inviteId };
        },
        onDone: {
          target: 'success',
          actions: [
            {
              type: 'storeSession',
              params: ({ event }) => ({ username: event.output.user.username, ...event.output.tokens }),
            },
            'goHome',
          ],
        },
        onError: { target: 'form', actions: { type: 'showRegistrationErrors', params: ({ event }) => registrationErrors(event.error) } },
      },
    },
    success: { type: 'final' },
  },
});

export type InviteRegistrationSnapshot = SnapshotFrom<typeof inviteRegistrationMachine>;

export const selectIsPending = (snapshot: InviteRegistrationSnapshot) => snapshot.hasTag('pending');
export const selectAffiliateName = (snapshot: InviteRegistrationSnapshot) => snapshot.context.affiliateName;
export const selectFieldErrors = (snapshot: InviteRegistrationSnapshot) => snapshot.context.fieldErrors;
export const selectError = (snapshot: InviteRegistrationSnapshot) => snapshot.context.error;
