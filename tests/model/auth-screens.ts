// What the user sees in each state of the auth machine: the model-based suite (auth-driver.tsx)
// checks the page against it before and after every step of a generated path. The screens' words
// (headings, lines, buttons, the error line's text) are auth-words.ts's, which the printed steps
// say too; what only jsdom checks besides (the stand-in for the portal, the QR code's absence, the
// countdown line's politeness) is below, by the leaves of the state's value.
import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyMachineSnapshot, StateValue } from 'xstate';
import { TOKEN_STORAGE_KEY, type StoredToken } from '../../src/domain/auth-token.ts';
import { QR_CODE_LABEL } from '../../src/features/auth/qr-code-image.tsx';
import { authAlertsOf, authControls, authScreensOf, authTexts, leavesOf } from './auth-words.ts';
import { button, checkScreenWords, shownAlerts } from './screen-checks.ts';
import { mergeScreens } from './screen-words.ts';
import { stateLabel } from './paths.ts';

export { button } from './screen-checks.ts';

/** How long a screen may take to appear after a step (a server call, a re-render). */
export const SCREEN_TIMEOUT_MS = 3_000;

/** The portal the suite renders inside the gate, and so sees once signed in. */
export const PORTAL_CONTENT = 'Portal content';

const noQrCode = () => expect(screen.queryByRole('img', { name: QR_CODE_LABEL })).not.toBeInTheDocument();
const resendNotBusy = () => expect(button(authControls.resend.text)).toHaveAttribute('aria-busy', 'false');
const countdownLine = () => screen.queryByText(/^You can ask for a new code in \d+ s\.$/);

/** What jsdom checks besides the words, by state value leaf. */
const extraChecks: Record<string, (snapshot: AnyMachineSnapshot) => void> = {
  'totpSetup.ready.qrCode.generating': noQrCode,
  'totpSetup.ready.qrCode.failed': noQrCode,
  // Confirm is enabled only once a code is typed.
  'totpSetup.ready.form.idle': () => button(authControls.confirm.text),
  'emailSetup.ready.form.idle': () => {
    resendNotBusy();
    button(authControls.confirm.text);
  },
  'emailSetup.ready.resendWait.waiting': (snapshot) => {
    const seconds = (snapshot.context as { resendWait: number }).resendWait;
    expect(screen.getByText(authTexts.resendWait(seconds).text)).toHaveAttribute('aria-live', 'polite');
  },
  'emailSetup.ready.resendWait.over': () => expect(countdownLine()).not.toBeInTheDocument(),
  'emailVerification.ready.form.idle': resendNotBusy,
  'emailVerification.ready.resendWait.waiting': (snapshot) => {
    const seconds = (snapshot.context as { resendWait: number }).resendWait;
    expect(screen.getByText(authTexts.resendWait(seconds).text)).toHaveAttribute('aria-live', 'polite');
  },
  'emailVerification.ready.resendWait.over': () => expect(countdownLine()).not.toBeInTheDocument(),
  'authenticated.active': () => expect(screen.getByText(PORTAL_CONTENT)).toBeInTheDocument(),
};

const storedRecord = () => window.localStorage.getItem(TOKEN_STORAGE_KEY);
export const storedAccess = () => (JSON.parse(storedRecord() ?? 'null') as StoredToken | null)?.access ?? null;

/** Waits until the page shows `snapshot`'s state: its screen, error line and stored token. */
export async function expectScreenOf(snapshot: AnyMachineSnapshot): Promise<void> {
  const label = stateLabel(snapshot);
  const words = mergeScreens(authScreensOf(snapshot));
  const alerts = authAlertsOf(snapshot).map((alert) => alert.text);
  const extras = leavesOf(snapshot.value as StateValue).flatMap((leaf) => extraChecks[leaf] ?? []);
  try {
    await waitFor(
      () => {
        checkScreenWords(words);
        for (const check of extras) check(snapshot);
        // The portal shows only in a usable session.
        if (!snapshot.matches({ authenticated: 'active' })) expect(screen.queryByText(PORTAL_CONTENT)).not.toBeInTheDocument();
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
