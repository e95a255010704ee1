// What codeScreens (code-screens.ts) loads: the code screens, and the 2FA setup screens.
export { EmailSetupScreen } from './email-setup-screen.tsx';
export { EmailVerificationScreen } from './email-verification-screen.tsx';
export { SetupRequiredScreen } from './setup-required-screen.tsx';
export { TotpSetupScreen } from './totp-setup-screen.tsx';
export { TotpVerificationScreen } from './totp-verification-screen.tsx';
