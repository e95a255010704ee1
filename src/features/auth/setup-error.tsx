// A failed call that the user can try again: its heading, the error text, Back and Retry
// ('Retrying...' while the new attempt runs). Both setup screens show it as 'Setup Error'; the
// e-mail verification screen shows it as 'Email Error' when the code could not be sent.
import { Alert } from '../../components/alert.tsx';
import { useAuthSelector, useSession } from '../../app/session-context.tsx';
import { AuthCard } from './auth-card.tsx';

export interface RetryErrorProps {
  heading: string;
  retry: { type: 'SETUP.RETRY' } | { type: 'EMAIL.RETRY' };
  retrying: boolean;
}

export function RetryError({ heading, retry, retrying }: RetryErrorProps) {
  const { auth } = useSession();
  const error = useAuthSelector((snapshot) => snapshot.context.error);
  const canRetry = useAuthSelector((snapshot) => snapshot.can(retry));
  return (
    <AuthCard title={heading}>
      {/* Cleared while retrying, so that a second failure is announced again. */}
      <Alert message={retrying ? null : error} />
      <div className="auth-actions">
        <button type="button" onClick={() => auth.send({ type: 'BACK' })}>
          Back
        </button>
        <button type="button" className="button-primary" disabled={!canRetry} onClick={() => auth.send(retry)}>
          {retrying ? 'Retrying...' : 'Retry'}
        </button>
      </div>
    </AuthCard>
  );
}

export function SetupError({ retrying }: { retrying: boolean }) {
  return <RetryError heading="Setup Error" retry={{ type: 'SETUP.RETRY' }} retrying={retrying} />;
}
