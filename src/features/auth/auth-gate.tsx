// The login gate (spec section 4): the sign-in screen the auth machine is in, or, once the
// session is verified and its access token current, the app content.
import type { ReactNode } from 'react';
import type { SnapshotFrom } from 'xstate';
import { Spinner } from '../../components/spinner.tsx';
import { useAuthSelector } from '../../app/session-context.tsx';
import type { AuthActor } from '../../app/session.ts';
import { AuthCard } from './auth-card.tsx';
import { EmailSetupScreen } from './email-setup-screen.tsx';
import { EmailVerificationScreen } from './email-verification-screen.tsx';
import { LoginScreen } from './login-screen.tsx';
import { SetupRequiredScreen } from './setup-required-screen.tsx';
import { TotpSetupScreen } from './totp-setup-screen.tsx';
import { TotpVerificationScreen } from './totp-verification-screen.tsx';

type GateScreen = 'login' | 'setupRequired' | 'totpSetup' | 'emailSetup' | 'totpVerification' | 'emailVerification' | 'app' | 'restoring';

function screenOf(snapshot: SnapshotFrom<AuthActor>): GateScreen {
  if (snapshot.matches('signedOut')) return 'login';
  if (snapshot.matches('setupRequired')) return 'setupRequired';
  if (snapshot.matches('totpSetup')) return 'totpSetup';
  if (snapshot.matches('emailSetup')) return 'emailSetup';
  if (snapshot.matches('totpVerification')) return 'totpVerification';
  if (snapshot.matches('emailVerification')) return 'emailVerification';
  if (snapshot.matches({ authenticated: 'active' })) return 'app';
  // authenticated.restoring (and the passing states routing / authenticated.checking)
  return 'restoring';
}

export function AuthGate({ children }: { children: ReactNode }) {
  const screen = useAuthSelector(screenOf);
  switch (screen) {
    case 'login':
      return <LoginScreen />;
    case 'setupRequired':
      return <SetupRequiredScreen />;
    case 'totpSetup':
      return <TotpSetupScreen />;
    case 'emailSetup':
      return <EmailSetupScreen />;
    case 'totpVerification':
      return <TotpVerificationScreen />;
    case 'emailVerification':
      return <EmailVerificationScreen />;
    case 'app':
      return children;
    case 'restoring':
      return (
        <AuthCard>
          <Spinner label="Restoring session..." />
        </AuthCard>
      );
  }
}
