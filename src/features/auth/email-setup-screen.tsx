// E-mail 2FA setup: 'Setting up Email 2FA' while the setup call sends the confirmation e-mail,
// 'Setup Error' if it fails ('Retrying...' while Retry runs), then 'Confirm Email 2FA Setup' with
// the address it went to, the code input, Back, 'Resend Email' and Confirm. A refused code says, under
// the error line, to use the newest e-mail's; after too many codes, Confirm waits as long as the
// server says.
import { useAuthSelector } from '../../session/session-context.tsx';
import { AuthCard } from '../../components/auth-card.tsx';
import { CodeForm } from './code-form.tsx';
import { useResendEmail } from './resent-note.tsx';
import { withOpeningCall } from './setup-error.tsx';

export const EmailSetupScreen = withOpeningCall(
  { starting: 'Setting up Email 2FA', heading: 'Setup Error', retry: { type: 'SETUP.RETRY' } },
  EmailSetupForm,
);

function EmailSetupForm() {
  const email = useAuthSelector((snapshot) => snapshot.context.setupEmail);
  const resendEmail = useResendEmail();

  return (
    <AuthCard title="Confirm Email 2FA Setup">
      <p>A confirmation email has been sent to {email}.</p>
      <p className="auth-lead">Enter the 6-digit code from that email to turn on two-factor authentication.</p>
      <CodeForm
        label="Email Verification Code"
        action={{ event: 'CODE.CONFIRM', refused: 'The code was not accepted. Use the code from the newest e-mail.' }}
        back={{ text: 'Back', event: 'BACK' }}
        focusOnMount
        resend={resendEmail}
      />
    </AuthCard>
  );
}
