// The invite registration machine's side effects, built from what the invite page gives them: the
// invite calls (src/api/invites.ts), signing the new account in, and going to /. Tests pass their own.
import { fromPromise } from 'xstate';
import type { InviteApi } from '../src/api/invites.ts';
import type { StoredToken } from '../src/domain/auth-token.ts';
import { inviteRegistrationMachine } from './invite-registration.ts';

export interface InviteRegistrationDependencies {
  api: Pick<InviteApi, 'getInvite' | 'register'>;
  /** Signs the new account in with its token record (the session's signIn): the login gate follows it. */
  storeSession: (token: StoredToken) => void;
  /** Goes to /. */
  goHome: () => void;
}

export function provideInviteRegistration(deps: InviteRegistrationDependencies) {
  return inviteRegistrationMachine.provide({
    actors: {
      lookupInvite: fromPromise(({ input }) => deps.api.getInvite(input.inviteId)),
      register: fromPromise(({ input }) => deps.api.register(input)),
    },
    actions: {
      storeSession: (_, token) => deps.storeSession(token),
      goHome: () => deps.goHome(),
    },
  });
}
