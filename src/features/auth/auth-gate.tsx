// The login gate: the sign-in screen the auth machine is in, or, once the session is verified
// (is_2fa_verified) and its access token current, the app content.
import { lazy, Suspense, type ReactNode } from 'react';
import type { SnapshotFrom } from 'xstate';
import { Spinner } from '../../components/spinner.tsx';
import { useAuthSelector } from '../../session/session-context.tsx';
import type { AuthActor } from '../../session/session.ts';
import { AuthCard } from './auth-card.tsx';
import { useLazyModule } from '../../components/lazy-module.ts';
import { ErrorBoundary } from '../../components/error-boundary.tsx';
import { codeScreens } from './code-screens.ts';
import { LoginScreen } from './login-screen.tsx';

// Setting up a second factor happens once per account: those screens load when needed, so that
// what /login downloads before the first code screen stays small.
const SetupRequiredScreen = lazy(() => import('./setup-required-screen.tsx').then((m) => ({ default: m.SetupRequiredScreen })));
const TotpSetupScreen = lazy(() => import('./totp-setup-screen.tsx').then((m) => ({ default: m.TotpSetupScreen })));
const EmailSetupScreen = lazy(() => import('./email-setup-screen.tsx').then((m) => ({ default: m.EmailSetupScreen })));

function Loading() {
  return (
    <AuthCard>
      <Spinner label="Loading..." />
    </AuthCard>
  );
}

/** A code screen, once its code is there (loading since Login was pressed, or now). */
function CodeScreen({ which }: { which: 'totpVerification' | 'emailVerification' }) {
  const screens = useLazyModule(codeScreens);
  if (!screens) return <Loading />;
  return which === 'totpVerification' ? <screens.TotpVerificationScreen /> : <screens.EmailVerificationScreen />;
}

/** A screen whose code loads on demand; if it cannot load, the gate says so rather than going blank. */
function OnDemand({ screen, children }: { screen: GateScreen; children: ReactNode }) {
  return (
    <ErrorBoundary what="This page" resetKey={screen}>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </ErrorBoundary>
  );
}

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
      return (
        <OnDemand screen={screen}>
          <SetupRequiredScreen />
        </OnDemand>
      );
    case 'totpSetup':
      return (
        <OnDemand screen={screen}>
          <TotpSetupScreen />
        </OnDemand>
      );
    case 'emailSetup':
      return (
        <OnDemand screen={screen}>
          <EmailSetupScreen />
        </OnDemand>
      );
    case 'totpVerification':
    case 'emailVerification':
      return (
        <OnDemand screen={screen}>
          <CodeScreen which={screen} />
        </OnDemand>
      );
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
