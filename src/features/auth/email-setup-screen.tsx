// E-mail 2FA setup: 'Setting up Email 2FA' while the setup call sends the confirmation e-mail,
// 'Setup Error' if it fails ('Retrying...' while Retry runs), then 'Confirm Email 2FA Setup' with
// the address it went to, the code input, Back, 'Resend Email' and Confirm. A refused code says, under
// the error line, to use the newest e-mail's; after too many codes, Confirm waits as long as the
// server says.
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { selectIsCodeRefused } from '../../../machines/auth.selectors.ts';
import { Alert } from '../../components/alert.tsx';
import { CodeField } from '../../components/code-field.tsx';
import { useFocusKeptWhilePending } from '../../components/focus-if-lost.ts';
import { useAuthSelector, useSession } from '../../session/session-context.tsx';
import { AuthCard } from '../../components/auth-card.tsx';
import { CodeWaitNote, describedBy, RefusedCodeNote, useCodeWait } from './code-notes.tsx';
import { useResendEmail } from './resent-note.tsx';
import { OpeningCall } from './setup-error.tsx';

export function EmailSetupScreen() {
  return (
    <OpeningCall starting="Setting up Email 2FA" heading="Setup Error" retry={{ type: 'SETUP.RETRY' }}>
      <EmailSetupForm />
    </OpeningCall>
  );
}

function EmailSetupForm() {
  const { auth } = useSession();
  const email = useAuthSelector((snapshot) => snapshot.context.setupEmail);
  const error = useAuthSelector((snapshot) => snapshot.context.error);
  const idle = useAuthSelector((snapshot) => snapshot.matches({ emailSetup: { ready: { form: 'idle' } } }));
  const resending = useAuthSelector((snapshot) => snapshot.matches({ emailSetup: { ready: { form: 'resending' } } }));
  const confirming = useAuthSelector((snapshot) => snapshot.matches({ emailSetup: { ready: { form: 'confirming' } } }));
  useFocusKeptWhilePending(resending || confirming);
  const [code, setCode] = useState('');
  const canConfirm = useAuthSelector((snapshot) => snapshot.can({ type: 'CODE.CONFIRM', code }));
  const errorId = useId();
  const hintId = useId();
  const waitId = useId();
  const wait = useCodeWait();
  const refused = useAuthSelector(selectIsCodeRefused);
  const resendEmail = useResendEmail({ resending, idle, error });

  const confirm = () => auth.send({ type: 'CODE.CONFIRM', code });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    confirm();
  }
  // A disabled Confirm blocks the browser's own submit on Enter; send it anyway.
  function enter(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    confirm();
  }

  return (
    <AuthCard title="Confirm Email 2FA Setup">
      <p>A confirmation email has been sent to {email}.</p>
      <p className="auth-lead">Enter the 6-digit code from that email to turn on two-factor authentication.</p>
      <form onSubmit={submit} noValidate>
        <CodeField
          label="Email Verification Code"
          value={code}
          onChange={setCode}
          onKeyDown={enter}
          focusOnMount
          describedBy={describedBy(error ? errorId : null, refused ? hintId : null, wait > 0 ? waitId : null)}
          invalid={error !== null}
        />
        <Alert id={errorId} message={error} />
        <RefusedCodeNote id={hintId} text="The code was not accepted. Use the code from the newest e-mail." />
        <CodeWaitNote id={waitId} seconds={wait} />
        {resendEmail.resentNote}
        <div className="auth-actions">
          <button type="button" onClick={() => auth.send({ type: 'BACK' })}>
            Back
          </button>
          {resendEmail.button}
          <button
            type="submit"
            className="button-primary"
            disabled={code.trim() === '' || !canConfirm}
            aria-describedby={wait > 0 ? waitId : undefined}
          >
            {confirming ? 'Confirming...' : 'Confirm'}
          </button>
        </div>
        {resendEmail.waitNote}
      </form>
    </AuthCard>
  );
}
