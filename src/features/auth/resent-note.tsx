// 'Resend Email' on the e-mail code screens, with its two polite lines: 'A new code has been sent.'
// after a Resend, and the wait before Resend may be asked again. Each live region stays in the
// page, empty until there is something to say, so that the message is announced when it appears.
import { useId, useState } from 'react';
import type { AuthSnapshot } from '../../../machines/auth.ts';
import { selectCodeWait, selectResendWait } from '../../../machines/auth.selectors.ts';
import { useAuthSelector, useSession } from '../../session/session-context.tsx';

function ResentNote({ shown }: { shown: boolean }) {
  return (
    <p role="status" className="auth-note">
      {shown ? 'A new code has been sent.' : null}
    </p>
  );
}

/**
 * The wait before 'Resend Email' may send another code, counting down each second, or the wait
 * after too many codes, which holds Resend too; gone once it is over.
 */
function ResendWaitNote({ id, text }: { id: string; text: string | null }) {
  return (
    <p id={id} aria-live="polite" className="auth-note">
      {text}
    </p>
  );
}

/** Whether the e-mail code screen's form (of the setup or of the sign-in) is in `form`. */
const emailFormIs = (form: 'idle' | 'resending') => (snapshot: AuthSnapshot) =>
  snapshot.matches({ emailSetup: { ready: { form } } }) || snapshot.matches({ emailVerification: { ready: { form } } });
const isIdle = emailFormIs('idle');
const isResending = emailFormIs('resending');

/**
 * The Resend button of an e-mail code form and its lines, for the form to place: `resentNote`
 * under the error line (shown while the form is idle with no error), `button` among the actions,
 * `waitNote` under them.
 */
export function useResendEmail() {
  const { auth } = useSession();
  const idle = useAuthSelector(isIdle);
  const resending = useAuthSelector(isResending);
  const error = useAuthSelector((snapshot) => snapshot.context.error);
  const canResend = useAuthSelector((snapshot) => snapshot.can({ type: 'EMAIL.RESEND' }));
  const wait = useAuthSelector(selectResendWait);
  const codeWaiting = useAuthSelector((snapshot) => selectCodeWait(snapshot) > 0);
  const waitText = codeWaiting
    ? 'You can resend the code when the wait is over.'
    : wait > 0
      ? `You can ask for a new code in ${wait} s.`
      : null;
  const waitId = useId();
  const [resent, setResent] = useState(false);
  const resend = () => {
    setResent(true);
    auth.send({ type: 'EMAIL.RESEND' });
  };
  return {
    resending,
    resentNote: <ResentNote shown={resent && idle && error === null} />,
    button: (
      <button type="button" disabled={!canResend} aria-busy={resending} aria-describedby={waitText ? waitId : undefined} onClick={resend}>
        Resend Email
      </button>
    ),
    waitNote: <ResendWaitNote id={waitId} text={waitText} />,
  };
}
