// Invite registration, on /invite/{inviteId}, outside the login gate: the validating spinner,
// then 'Invalid Invite', or the lookup's message and Retry when it failed for another reason, or
// the 'Join' form; after registering, the session signs the new account in and the user goes to
// /, where the login gate asks for 2FA set-up.
// The machine (machines/invite-registration.ts) decides; this page renders it and sends to it.
import { useMachine } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import { useLocation } from 'wouter';
import { provideInviteRegistration } from '../../../machines/invite-registration.actors.ts';
import { createInviteApi } from '../../api/invites.ts';
import { env } from '../../config/env.ts';
import { loadTagManager } from '../../session/data-layer.ts';
import { useSession } from '../../session/session-context.tsx';
import { Alert } from '../../components/alert.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { AuthCard } from '../../components/auth-card.tsx';
import { JoinForm } from './join-form.tsx';

function InviteRegistration({ inviteId }: { inviteId: string }) {
  const session = useSession();
  const [, goTo] = useLocation();
  // The tag manager records the page's URL, and the invite's id in it is a secret that creates an
  // account: where the visit started here, it loads as the user leaves for another page.
  const navigate = useCallback(
    (path: string) => {
      if (env.gtmId) loadTagManager(window, env.gtmId);
      goTo(path);
    },
    [goTo],
  );
  const logic = useMemo(
    () =>
      provideInviteRegistration({
        api: createInviteApi(session.client),
        storeSession: (token) => session.signIn(token),
        goHome: () => navigate('/'),
      }),
    [session, navigate],
  );
  const [snapshot, , actorRef] = useMachine(logic, { input: { inviteId } });
  const toLogin = () => navigate('/login');

  if (snapshot.matches('validating')) {
    return (
      <AuthCard>
        <Spinner label="Validating invite..." />
      </AuthCard>
    );
  }
  // 'Invalid Invite' with Go to Login; a lookup that failed otherwise (network, 5xx) is no Join
  // form either, and shows the failure's text with a Retry, since the invite may well be valid.
  if (snapshot.matches('invalid') || snapshot.matches('unavailable')) {
    const canRetry = snapshot.matches('unavailable');
    return (
      <AuthCard title="Invalid Invite">
        <Alert message={snapshot.context.error} />
        <div className="auth-actions">
          <button type="button" className={canRetry ? undefined : 'button-primary'} onClick={toLogin}>
            Go to Login
          </button>
          {canRetry && (
            <button type="button" className="button-primary" onClick={() => actorRef.send({ type: 'INVITE.RETRY' })}>
              Retry
            </button>
          )}
        </div>
      </AuthCard>
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
