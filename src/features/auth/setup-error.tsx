// A screen that opens with a call (a 2FA setup, the login code e-mail): its spinner while the call
// runs, then its form; a failed call that the user can try again shows its heading, the error
// text, Back and Retry ('Retrying...' while the new attempt runs). Both setup screens show it as
// 'Setup Error'; the e-mail verification screen shows it as 'Email Error'.
import type { ReactNode } from 'react';
import { selectSetupPhase } from '../../../machines/auth.selectors.ts';
import { Alert } from '../../components/alert.tsx';
import { useFocusKeptWhilePending } from '../../components/focus-if-lost.ts';
import { Spinner } from '../../components/spinner.tsx';
import { useAuthSelector, useSession } from '../../session/session-context.tsx';
import { AuthCard } from '../../components/auth-card.tsx';

export interface RetryErrorProps {
  heading: string;
  retry: { type: 'SETUP.RETRY' } | { type: 'EMAIL.RETRY' };
  retrying: boolean;
}

export function RetryError({ heading, retry, retrying }: RetryErrorProps) {
  const { auth } = useSession();
  const error = useAuthSelector((snapshot) => snapshot.context.error);
  const canRetry = useAuthSelector((snapshot) => snapshot.can(retry));
  useFocusKeptWhilePending(!canRetry);
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

export interface OpeningCallProps extends Pick<RetryErrorProps, 'heading' | 'retry'> {
  /** The spinner's text while the first attempt runs. */
  starting: string;
  /** The form, once the call has answered. */
  children: ReactNode;
}

export function OpeningCall({ starting, heading, retry, children }: OpeningCallProps) {
  const phase = useAuthSelector(selectSetupPhase);
  if (phase === 'starting') {
    return (
      <AuthCard>
        <Spinner label={starting} />
      </AuthCard>
    );
  }
  if (phase !== 'ready') return <RetryError heading={heading} retry={retry} retrying={phase === 'retrying'} />;
  return children;
}

/** The screen that opens with `call`, then shows `Form`. */
export function withOpeningCall(call: Omit<OpeningCallProps, 'children'>, Form: () => ReactNode) {
  return function Screen() {
    return (
      <OpeningCall {...call}>
        <Form />
      </OpeningCall>
    );
  };
}
