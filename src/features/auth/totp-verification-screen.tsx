// TOTP login verification: 'Enter 2FA Code', the 'Authentication Code' input,
// 'Back to Login' (logs out) and Verify (enabled only with exactly 6 characters, as a shorter code
// would only spend one of the limited attempts; 'Verifying...' while the code is checked). After
// too many codes, Verify waits as long as the server says, the wait counting down under the
// error line, the typed code kept.
import { useId, useState, type FormEvent } from 'react';
import { selectIsPending } from '../../../machines/auth.ts';
import { Alert } from '../../components/alert.tsx';
import { CodeField } from '../../components/code-field.tsx';
import { useFocusKeptWhilePending } from '../../components/focus-if-lost.ts';
import { Spinner } from '../../components/spinner.tsx';
import { useAuthSelector, useSession } from '../../session/session-context.tsx';
import { AuthCard } from '../../components/auth-card.tsx';
import { CodeWaitNote, describedBy, useCodeWait } from './code-notes.tsx';

export function TotpVerificationScreen() {
  const { auth } = useSession();
  const error = useAuthSelector((snapshot) => snapshot.context.error);
  const verifying = useAuthSelector(selectIsPending);
  useFocusKeptWhilePending(verifying);
  const [code, setCode] = useState('');
  const canVerify = useAuthSelector((snapshot) => snapshot.can({ type: 'CODE.VERIFY', code }));
  const errorId = useId();
  const waitId = useId();
  const wait = useCodeWait();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    auth.send({ type: 'CODE.VERIFY', code });
  }

  return (
    <AuthCard title="Enter 2FA Code">
      <p>Enter the 6-digit code shown in your authenticator app.</p>
      <form onSubmit={submit} noValidate>
        <CodeField
          label="Authentication Code"
          value={code}
          onChange={setCode}
          focusOnMount
          describedBy={describedBy(error ? errorId : null, wait > 0 ? waitId : null)}
          invalid={error !== null}
        />
        <Alert id={errorId} message={error} />
        <CodeWaitNote id={waitId} seconds={wait} />
        <div className="auth-actions">
          <button type="button" onClick={() => auth.send({ type: 'LOGOUT' })}>
            Back to Login
          </button>
          <button type="submit" className="button-primary" disabled={!canVerify} aria-describedby={wait > 0 ? waitId : undefined}>
            Verify
          </button>
        </div>
        {verifying ? <Spinner label="Verifying..." /> : null}
      </form>
    </AuthCard>
  );
}
