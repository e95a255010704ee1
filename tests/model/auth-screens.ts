// What the user sees in each state of the auth machine, and the controls each screen offers: the
// model-based suite (auth-driver.tsx) checks the page against this table before and after every
// step of a generated path. States are keyed by the leaves of their value, each parallel region on
// its own (`totpSetup.ready.qrCode.shown`, `totpSetup.ready.form.idle`).
import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyMachineSnapshot, StateValue } from 'xstate';
import type { AuthSnapshot } from '../../machines/auth.ts';
import { selectSetupPhase } from '../../machines/auth.selectors.ts';
import { TOKEN_STORAGE_KEY, type StoredToken } from '../../src/domain/auth-token.ts';
import { QR_CODE_LABEL } from '../../src/features/auth/qr-code-image.tsx';
import { stateLabel } from './paths.ts';

/** How long a screen may take to appear after a step (a server call, a re-render). */
export const SCREEN_TIMEOUT_MS = 3_000;

interface Screen {
  /** Throws unless the page shows this state (`snapshot`: the whole state, for what its context says). */
  check: (snapshot: AnyMachineSnapshot) => void;
  /** Alerts this state shows besides the error line. */
  alerts?: string[];
  /** Why the error line stays empty here although context.error is set. */
  hidesError?: string;
  /** What the page shows instead while the state's call runs again after a failure (selectSetupPhase). */
  retrying?: Screen;
}

const heading = (name: string) => expect(screen.getByRole('heading', { level: 1, name })).toBeInTheDocument();
export const button = (name: string) => screen.getByRole('button', { name });
const noButton = (name: string) => expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
const statusTexts = () => screen.queryAllByRole('status').map((element) => element.textContent.trim());
const status = (text: string) => expect(statusTexts()).toContain(text);
const noStatus = (text: string) => expect(statusTexts()).not.toContain(text);
const signedOutChrome = () => {
  noButton('Logout');
  expect(screen.queryByText('Portal content')).not.toBeInTheDocument();
};

const setupRequired = () => {
  signedOutChrome();
  heading('Two-Factor Authentication Required');
  expect(button('Email Codes')).toBeEnabled();
  expect(button('Authenticator App')).toBeEnabled();
  expect(button('Back to Login')).toBeEnabled();
};
/** What the setup-required screen says first when the invite page signed a new account in. */
const NEW_ACCOUNT_GREETING = 'Your account is created. One more step: set up two-factor authentication.';

const retryError = (title: string, retrying: boolean) => () => {
  signedOutChrome();
  heading(title);
  expect(button('Back')).toBeEnabled();
  if (retrying) {
    expect(button('Retrying...')).toBeDisabled();
  } else {
    expect(button('Retry')).toBeEnabled();
  }
};
const retryingHidesError = 'setup-error.tsx clears the error line while retrying, so that a second failure is announced';

/** 'Resend Email' on the form: busy while resending (and disabled); otherwise the resend wait says whether it is enabled. */
const resendButton = (busy: boolean) => {
  const resend = button('Resend Email');
  expect(resend).toHaveAttribute('aria-busy', String(busy));
  if (busy) expect(resend).toBeDisabled();
};
const countdownLine = () => screen.queryByText(/^You can ask for a new code in \d+ s\.$/);
/** What a setup's code form says under the error line once its code was refused. */
const refusedHints = {
  totpSetup: 'The code was not accepted. Enter the newest code your app shows.',
  emailSetup: 'The code was not accepted. Use the code from the newest e-mail.',
};
const noRefusedHint = () => expect(screen.queryByText(/^The code was not accepted\./)).not.toBeInTheDocument();
/** Under the error line of a setup's code form: what to do, once its code was refused ('HTTP Error: 400'). */
const refusedHint = (form: keyof typeof refusedHints, snapshot: AnyMachineSnapshot) => {
  if ((snapshot.context as { error: string | null }).error !== 'HTTP Error: 400') return noRefusedHint();
  expect(screen.getByText(refusedHints[form])).toHaveAttribute('aria-live', 'polite');
};
const noCodeWait = () => expect(screen.queryByText(/^Too many attempts\./)).not.toBeInTheDocument();
/**
 * The wait after too many codes: its m:ss on the timer line, the form's submit button disabled,
 * and the code typed still in the field.
 */
const codeWait =
  (field: string, submit: string) =>
  (snapshot: AnyMachineSnapshot): void => {
    const seconds = (snapshot.context as { codeWait: number }).codeWait;
    const line = screen.getByText(`Too many attempts. You can try again in 0:${String(seconds).padStart(2, '0')}.`);
    expect(line).toHaveAttribute('role', 'timer');
    expect(button(submit)).toBeDisabled();
    expect(screen.getByLabelText<HTMLInputElement>(field).value).toMatch(/^\d{6}$/);
  };
/** The resend wait: Resend disabled with the seconds left on a polite line, then the line gone and Resend enabled on the idle form. */
const resendWait = (screenName: 'emailSetup' | 'emailVerification'): Record<string, Screen> => ({
  [`${screenName}.ready.resendWait.waiting`]: {
    check: (snapshot) => {
      const seconds = (snapshot.context as { resendWait: number }).resendWait;
      expect(button('Resend Email')).toBeDisabled();
      const line = screen.getByText(`You can ask for a new code in ${seconds} s.`);
      expect(line).toHaveAttribute('aria-live', 'polite');
    },
  },
  [`${screenName}.ready.resendWait.over`]: {
    check: (snapshot) => {
      expect(countdownLine()).not.toBeInTheDocument();
      if (snapshot.matches({ [screenName]: { ready: { form: 'idle' } } })) expect(button('Resend Email')).toBeEnabled();
    },
  },
});

/** State value leaf (dotted, each parallel region separately) → what the page shows. */
export const screens: Record<string, Screen> = {
  'signedOut.idle': {
    check: () => {
      signedOutChrome();
      heading('Affiliate Login');
      expect(button('Login')).toBeEnabled();
      noStatus('Signing in...');
    },
  },
  'signedOut.signingIn': {
    check: () => {
      signedOutChrome();
      heading('Affiliate Login');
      status('Signing in...');
      expect(button('Login')).toBeDisabled();
    },
  },
  'setupRequired.asked': {
    check: () => {
      setupRequired();
      noStatus(NEW_ACCOUNT_GREETING);
    },
  },
  'setupRequired.afterRegistration': {
    check: () => {
      setupRequired();
      status(NEW_ACCOUNT_GREETING);
    },
  },
  'totpSetup.settingUp': {
    check: () => {
      signedOutChrome();
      status('Setting up 2FA');
    },
    retrying: { check: retryError('Setup Error', true), hidesError: retryingHidesError },
  },
  'totpSetup.setupError': { check: retryError('Setup Error', false) },
  'totpSetup.ready.qrCode.generating': {
    check: () => {
      status('Generating QR code...');
      expect(screen.queryByRole('img', { name: QR_CODE_LABEL })).not.toBeInTheDocument();
    },
  },
  'totpSetup.ready.qrCode.shown': {
    check: () => {
      expect(screen.getByRole('img', { name: QR_CODE_LABEL })).toBeInTheDocument();
      noStatus('Generating QR code...');
    },
  },
  'totpSetup.ready.qrCode.failed': {
    check: () => {
      expect(screen.queryByRole('img', { name: QR_CODE_LABEL })).not.toBeInTheDocument();
      noStatus('Generating QR code...');
    },
    alerts: ['Failed to generate QR code'],
  },
  'totpSetup.ready.form.idle': {
    check: (snapshot) => {
      signedOutChrome();
      heading('Set Up Authenticator App');
      expect(screen.getByText('Manual entry key')).toBeInTheDocument();
      expect(button('Back')).toBeEnabled();
      button('Confirm'); // enabled only once a code is typed
      refusedHint('totpSetup', snapshot);
      noCodeWait();
    },
  },
  'totpSetup.ready.form.throttled': {
    check: (snapshot) => {
      signedOutChrome();
      heading('Set Up Authenticator App');
      codeWait('Authentication Code', 'Confirm')(snapshot);
      noRefusedHint();
    },
  },
  'totpSetup.ready.form.confirming': {
    check: () => {
      signedOutChrome();
      heading('Set Up Authenticator App');
      expect(button('Confirming...')).toBeDisabled();
    },
  },
  'emailSetup.settingUp': {
    check: () => {
      signedOutChrome();
      status('Setting up Email 2FA');
    },
    retrying: { check: retryError('Setup Error', true), hidesError: retryingHidesError },
  },
  'emailSetup.setupError': { check: retryError('Setup Error', false) },
  'emailSetup.ready.form.idle': {
    check: (snapshot) => {
      signedOutChrome();
      heading('Confirm Email 2FA Setup');
      resendButton(false);
      button('Confirm');
      refusedHint('emailSetup', snapshot);
      noCodeWait();
    },
  },
  'emailSetup.ready.form.throttled': {
    check: (snapshot) => {
      signedOutChrome();
      heading('Confirm Email 2FA Setup');
      codeWait('Email Verification Code', 'Confirm')(snapshot);
      expect(button('Resend Email')).toBeDisabled();
      noRefusedHint();
    },
  },
  'emailSetup.ready.form.resending': {
    check: () => {
      signedOutChrome();
      heading('Confirm Email 2FA Setup');
      resendButton(true);
    },
  },
  ...resendWait('emailSetup'),
  'emailSetup.ready.form.confirming': {
    check: () => {
      signedOutChrome();
      heading('Confirm Email 2FA Setup');
      expect(button('Confirming...')).toBeDisabled();
    },
  },
  'totpVerification.idle': {
    check: () => {
      signedOutChrome();
      heading('Enter 2FA Code');
      noStatus('Verifying...');
      expect(button('Back to Login')).toBeEnabled();
      noCodeWait();
    },
  },
  'totpVerification.throttled': {
    check: (snapshot) => {
      signedOutChrome();
      heading('Enter 2FA Code');
      codeWait('Authentication Code', 'Verify')(snapshot);
      expect(button('Back to Login')).toBeEnabled();
    },
  },
  'totpVerification.verifying': {
    check: () => {
      signedOutChrome();
      heading('Enter 2FA Code');
      status('Verifying...');
      expect(button('Verify')).toBeDisabled();
    },
  },
  'emailVerification.sending': {
    check: () => {
      signedOutChrome();
      status('Sending verification email...');
    },
    retrying: { check: retryError('Email Error', true), hidesError: retryingHidesError },
  },
  'emailVerification.sendError': { check: retryError('Email Error', false) },
  'emailVerification.ready.form.idle': {
    check: () => {
      signedOutChrome();
      heading('Check Your Email');
      noStatus('Verifying...');
      resendButton(false);
      noCodeWait();
    },
  },
  'emailVerification.ready.form.throttled': {
    check: (snapshot) => {
      signedOutChrome();
      heading('Check Your Email');
      codeWait('Email Verification Code', 'Verify Code')(snapshot);
      expect(button('Resend Email')).toBeDisabled();
    },
  },
  'emailVerification.ready.form.resending': {
    check: () => {
      signedOutChrome();
      heading('Check Your Email');
      resendButton(true);
    },
  },
  ...resendWait('emailVerification'),
  'emailVerification.ready.form.verifying': {
    check: () => {
      signedOutChrome();
      heading('Check Your Email');
      status('Verifying...');
      expect(button('Verify Code')).toBeDisabled();
    },
  },
  'authenticated.active': {
    check: () => {
      expect(button('Logout')).toBeEnabled();
      expect(screen.getByText('Portal content')).toBeInTheDocument();
      noStatus('Restoring session...');
    },
  },
  'authenticated.restoring': {
    check: () => {
      // The header offers Logout only once the session is usable (site-header.tsx).
      noButton('Logout');
      status('Restoring session...');
      expect(screen.queryByText('Portal content')).not.toBeInTheDocument();
    },
  },
};

/** The leaves of a state value, dotted: `totpSetup.ready.qrCode.shown`, `totpSetup.ready.form.idle`. */
function leavesOf(value: StateValue, prefix = ''): string[] {
  if (typeof value === 'string') return [`${prefix}${value}`];
  return Object.entries(value).flatMap(([key, child]) => (child === undefined ? [] : leavesOf(child, `${prefix}${key}.`)));
}

/** The texts of the alerts on the page that say something (an empty live region says nothing). */
const shownAlerts = () =>
  screen
    .queryAllByRole('alert')
    .map((element) => element.textContent.trim())
    .filter((text) => text !== '');

const storedRecord = () => window.localStorage.getItem(TOKEN_STORAGE_KEY);
export const storedAccess = () => (JSON.parse(storedRecord() ?? 'null') as StoredToken | null)?.access ?? null;

/** Waits until the page shows `snapshot`'s state: its screen, error line and stored token. */
export async function expectScreenOf(snapshot: AnyMachineSnapshot): Promise<void> {
  const label = stateLabel(snapshot);
  const retrying = selectSetupPhase(snapshot as AuthSnapshot) === 'retrying';
  const shown = leavesOf(snapshot.value as StateValue).map((leaf) => {
    const entry = screens[leaf];
    if (!entry) throw new Error(`No screen is known for the state ${leaf}`);
    return retrying && entry.retrying ? entry.retrying : entry;
  });
  const error = (snapshot.context as { error: string | null }).error;
  const alerts = shown.flatMap((entry) => entry.alerts ?? []);
  if (error && !shown.some((entry) => entry.hidesError)) alerts.push(error);
  try {
    await waitFor(
      () => {
        for (const entry of shown) entry.check(snapshot);
        expect(shownAlerts().sort()).toEqual(alerts.sort());
        expect(storedRecord() === null, `auth_token is stored unless signed out`).toBe(snapshot.matches('signedOut'));
      },
      { timeout: SCREEN_TIMEOUT_MS },
    );
  } catch (failure) {
    if (failure instanceof Error) failure.message = `The page does not show ${label}: ${failure.message}`;
    throw failure;
  }
}

// --- The controls ---------------------------------------------------------------------------

/** The code screens: the field, and the button that sends the code. */
export const codeForms = [
  { state: 'totpSetup', field: 'Authentication Code', submit: 'Confirm' },
  { state: 'emailSetup', field: 'Email Verification Code', submit: 'Confirm' },
  { state: 'totpVerification', field: 'Authentication Code', submit: 'Verify' },
  { state: 'emailVerification', field: 'Email Verification Code', submit: 'Verify Code' },
] as const;

export type ScreenOf = (snapshot: AuthSnapshot) => boolean;
const at =
  (value: StateValue): ScreenOf =>
  (snapshot) =>
    snapshot.matches(value as Parameters<AuthSnapshot['matches']>[0]);
/** The error screen of a failed call, shown while it runs again: it has Back, the first attempt's spinner has not. */
const retryingAt =
  (value: StateValue): ScreenOf =>
  (snapshot) =>
    at(value)(snapshot) && selectSetupPhase(snapshot) === 'retrying';
/** The control that sends BACK on each screen that has one. */
export const backControls: [ScreenOf, string][] = [
  [at({ totpSetup: 'setupError' }), 'Back'],
  [retryingAt({ totpSetup: 'settingUp' }), 'Back'],
  [at({ totpSetup: 'ready' }), 'Back'],
  [at({ emailSetup: 'setupError' }), 'Back'],
  [retryingAt({ emailSetup: 'settingUp' }), 'Back'],
  [at({ emailSetup: 'ready' }), 'Back'],
  [at({ emailVerification: 'sendError' }), 'Back'],
  [retryingAt({ emailVerification: 'sending' }), 'Back'],
  [at('setupRequired'), 'Back to Login'],
  [at({ emailVerification: 'ready' }), 'Back to Login'],
];
/** The control that sends LOGOUT on each screen that has one. */
export const logoutControls: [ScreenOf, string][] = [
  [at('totpVerification'), 'Back to Login'],
  [at({ authenticated: 'active' }), 'Logout'],
];
