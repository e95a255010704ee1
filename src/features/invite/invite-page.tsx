// Invite registration (spec section 2), on /invite/{inviteId}, outside the login gate: the
// validating spinner, then 'Invalid Invite', or the lookup's message and Retry when it failed
// for another reason, or the 'Join' form; after registering, the new account's token is stored
// and the user goes to /, where the login gate asks for 2FA set-up.
// The machine (machines/invite-registration.ts) decides; this page renders it and sends to it.
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { provideInviteRegistration } from '../../../machines/invite-registration.actors.ts';
import { createInviteApi } from '../../api/invites.ts';
import type { Session } from '../../app/session.ts';
import { useSession } from '../../app/session-context.tsx';
import { createTokenStorage } from '../../app/token-storage.ts';
import { Alert } from '../../components/alert.tsx';
import { Spinner } from '../../components/spinner.tsx';
import type { StoredToken } from '../../domain/auth-token.ts';
import { InviteCard } from './invite-card.tsx';
import { JoinForm } from './join-form.tsx';

/**
 * Stores a new account's token the way the session keeps it: in localStorage (auth_token), and in
 * the auth actor, which a write in this tab does not reach through the storage event.
 */
function storeNewSession(session: Session, token: StoredToken) {
  createTokenStorage(window.localStorage, window).write(token);
  session.auth.send({ type: 'STORAGE.CHANGED', token });
}

function InviteRegistration({ inviteId }: { inviteId: string }) {
  const session = useSession();
  const [, navigate] = useLocation();
  const logic = useMemo(
    () =>
      provideInviteRegistration({
        api: createInviteApi(session.client),
        storeSession: (token) => storeNewSession(session, token),
        goHome: () => navigate('/'),
      }),
    [session, navigate],
  );
  const [snapshot, , actorRef] = useMachine(logic, { input: { inviteId } });
  const toLogin = () => navigate('/login');

  if (snapshot.matches('validating')) {
    return (
      <InviteCard>
        <Spinner label="Validating invite..." />
      </InviteCard>
    );
  }
  if (snapshot.matches('invalid')) {
    return (
      <InviteCard title="Invalid Invite">
        <Alert message={snapshot.context.error} />
        <div className="invite-actions">
          <button type="button" className="button-primary" onClick={toLogin}>
            Go to Login
          </button>
        </div>
      </InviteCard>
    );
  }
  if (snapshot.matches('unavailable')) {
    return (
      <InviteCard title="Could Not Check Invite">
        <Alert message={snapshot.context.error} />
        <div className="invite-actions">
          <button type="button" onClick={toLogin}>
            Go to Login
          </button>
          <button type="button" className="button-primary" onClick={() => actorRef.send({ type: 'INVITE.RETRY' })}>
            Retry
          </button>
        </div>
      </InviteCard>
    );
  }
  if (snapshot.matches('form') || snapshot.matches('submitting')) {
    return <JoinForm actorRef={actorRef} onBackToLogin={toLogin} />;
  }
  // success: the machine has stored the session and gone to /.
  return null;
}

/** The route /invite/:inviteId; another invite id starts over. */
export default function InvitePage({ inviteId }: { inviteId: string }) {
  return <InviteRegistration key={inviteId} inviteId={inviteId} />;
}
