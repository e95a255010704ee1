// What codeScreens (code-screens.ts) loads.
export { EmailVerificationScreen } from './email-verification-screen.tsx';
export { TotpVerificationScreen } from './totp-verification-screen.tsx';
