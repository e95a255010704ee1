// 2FA setup required: the account has no two-factor method yet; the user picks e-mailed codes or an
// authenticator app, or goes back to the login screen. Reached from the invite page, it first says
// that the new account exists.
import { selectIsNewAccount } from '../../../machines/auth.selectors.ts';
import { Alert } from '../../components/alert.tsx';
import { useAuthSelector, useSession } from '../../session/session-context.tsx';
import { AuthCard } from '../../components/auth-card.tsx';

export function SetupRequiredScreen() {
  const { auth } = useSession();
  const error = useAuthSelector((snapshot) => snapshot.context.error);
  const newAccount = useAuthSelector(selectIsNewAccount);
  return (
    <AuthCard title="Two-Factor Authentication Required">
      {newAccount ? (
        <p role="status" className="auth-welcome">
          Your account is created. One more step: set up two-factor authentication.
        </p>
      ) : null}
      <p>Two-factor authentication is required for your account, but it has not been set up yet.</p>
      <p className="auth-lead">Choose how you want to receive your sign-in codes:</p>
      <Alert message={error} />
      <div className="auth-choices">
        <button type="button" onClick={() => auth.send({ type: 'SETUP.CHOOSE_EMAIL' })}>
          Email Codes
        </button>
        <button type="button" onClick={() => auth.send({ type: 'SETUP.CHOOSE_APP' })}>
          Authenticator App
        </button>
      </div>
      <div className="auth-actions">
        <button type="button" className="button-ghost" onClick={() => auth.send({ type: 'BACK' })}>
          Back to Login
        </button>
      </div>
    </AuthCard>
  );
}
