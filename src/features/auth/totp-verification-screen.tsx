// TOTP login verification: 'Enter 2FA Code', the 'Authentication Code' input,
// 'Back to Login' (logs out) and Verify (enabled only with exactly 6 characters, as a shorter code
// would only spend one of the limited attempts; 'Verifying...' while the code is checked). After
// too many codes, Verify waits as long as the server says, the wait counting down under the
// error line, the typed code kept.
import { AuthCard } from '../../components/auth-card.tsx';
import { CodeForm } from './code-form.tsx';

export function TotpVerificationScreen() {
  return (
    <AuthCard title="Enter 2FA Code">
      <p>Enter the 6-digit code shown in your authenticator app.</p>
      <CodeForm
        label="Authentication Code"
        action={{ event: 'CODE.VERIFY', button: 'Verify' }}
        back={{ text: 'Back to Login', event: 'LOGOUT' }}
        focusOnMount
      />
    </AuthCard>
  );
}
