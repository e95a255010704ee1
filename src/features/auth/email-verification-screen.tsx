// E-mail login verification: the code e-mail is sent on arrival ('Sending verification
// email...'); if that fails, 'Email Error' with Back and Retry; then 'Check Your Email' with the
// code input, 'Back to Login', 'Resend Email' and 'Verify Code' (enabled only with exactly 6
// characters; after too many codes, not until the wait the server gives is over).
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert.tsx';
import { CodeField } from '../../components/code-field.tsx';
import { useFocusKeptWhilePending } from '../../components/focus-if-lost.ts';
import { Spinner } from '../../components/spinner.tsx';
import { useAuthSelector, useSession } from '../../session/session-context.tsx';
import { AuthCard } from '../../components/auth-card.tsx';
import { CodeWaitNote, describedBy, useCodeWait } from './code-notes.tsx';
import { useResendEmail } from './resent-note.tsx';
import { OpeningCall } from './setup-error.tsx';

export function EmailVerificationScreen() {
  return (
    <OpeningCall starting="Sending verification email..." heading="Email Error" retry={{ type: 'EMAIL.RETRY' }}>
      <EmailCodeForm />
    </OpeningCall>
  );
}

function EmailCodeForm() {
  const { auth } = useSession();
  const error = useAuthSelector((snapshot) => snapshot.context.error);
  const idle = useAuthSelector((snapshot) => snapshot.matches({ emailVerification: { ready: { form: 'idle' } } }));
  const resending = useAuthSelector((snapshot) => snapshot.matches({ emailVerification: { ready: { form: 'resending' } } }));
  const verifying = useAuthSelector((snapshot) => snapshot.matches({ emailVerification: { ready: { form: 'verifying' } } }));
  useFocusKeptWhilePending(resending || verifying);
  const [code, setCode] = useState('');
  const canVerify = useAuthSelector((snapshot) => snapshot.can({ type: 'CODE.VERIFY', code }));
  const errorId = useId();
  const waitId = useId();
  const wait = useCodeWait();
  const resendEmail = useResendEmail({ resending, idle, error });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    auth.send({ type: 'CODE.VERIFY', code });
  }

  return (
    <AuthCard title="Check Your Email">
      <p>We sent a 6-digit code to your email address.</p>
      <form onSubmit={submit} noValidate>
        <CodeField
          label="Email Verification Code"
          value={code}
          onChange={setCode}
          focusOnMount
          describedBy={describedBy(error ? errorId : null, wait > 0 ? waitId : null)}
          invalid={error !== null}
        />
        <Alert id={errorId} message={error} />
        <CodeWaitNote id={waitId} seconds={wait} />
        {resendEmail.resentNote}
        <div className="auth-actions">
          <button type="button" onClick={() => auth.send({ type: 'BACK' })}>
            Back to Login
          </button>
          {resendEmail.button}
          <button type="submit" className="button-primary" disabled={!canVerify} aria-describedby={wait > 0 ? waitId : undefined}>
            Verify Code
          </button>
        </div>
        {resendEmail.waitNote}
        {verifying ? <Spinner label="Verifying..." /> : null}
      </form>
    </AuthCard>
  );
}
