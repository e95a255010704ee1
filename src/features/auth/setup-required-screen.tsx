// 2FA setup required: the account has no two-factor method yet; the user picks e-mailed codes or an
// authenticator app, or goes back to the login screen.
import { Alert } from '../../components/alert.tsx';
import { useAuthSelector, useSession } from '../../session/session-context.tsx';
import { AuthCard } from './auth-card.tsx';

export function SetupRequiredScreen() {
  const { auth } = useSession();
  const error = useAuthSelector((snapshot) => snapshot.context.error);
  return (
    <AuthCard title="Two-Factor Authentication Required">
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
