// What both 2FA setup screens do alike, the authenticator app's and the e-mailed codes': the
// opening call's spinner and 'Confirming...', the wait after too many codes, 'Setup Error' with
// Retry, and Back. What each does alone is in its own file.
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { newestCode, totpCode, type FixtureUser, type TestServer } from '../../../tests/utils/api-server.ts';
import { chooseTwoFactor, expectSignedOutAtLogin, gateServer, pendingSecret } from '../../../tests/utils/auth-gate.tsx';
import { steerableServer } from '../../../tests/utils/render-session.tsx';

interface SetupMethod {
  choice: 'Email Codes' | 'Authenticator App';
  /** The spinner's text while the setup call runs. */
  starting: string;
  heading: string;
  field: string;
  setupPath: string;
  confirmPath: string;
  /** The setup call's failure text. */
  failure: string;
  /** The code the user has now: the newest e-mail's, or the app's. */
  code: (server: TestServer, fresh: FixtureUser) => Promise<string>;
  /** What the screen shows once the setup call has answered, beside the code form. */
  shown: (fresh: FixtureUser) => Promise<HTMLElement>;
  /** How long the server's window keeps the oldest of five wrong codes, in seconds, and that wait as the line says it. */
  throttled: { seconds: number; says: string };
}

const methods: SetupMethod[] = [
  {
    choice: 'Email Codes',
    starting: 'Setting up Email 2FA',
    heading: 'Confirm Email 2FA Setup',
    field: 'Email Verification Code',
    setupPath: '2fa/email/setup/',
    confirmPath: '2fa/email/confirm_setup/',
    failure: 'Failed to setup email 2FA',
    code: (server, fresh) => Promise.resolve(newestCode(server, fresh.email)),
    shown: (fresh) => screen.findByText(`A confirmation email has been sent to ${fresh.email}.`),
    throttled: { seconds: 8, says: '8 seconds' },
  },
  {
    choice: 'Authenticator App',
    starting: 'Setting up 2FA',
    heading: 'Set Up Authenticator App',
    field: 'Authentication Code',
    setupPath: '2fa/totp/setup/',
    confirmPath: '2fa/totp/confirm/',
    failure: 'Failed to setup TOTP',
    code: (server, fresh) => totpCode(pendingSecret(server, fresh.id), server.clock.now()),
    shown: () => screen.findByRole('img', { name: 'QR code for your authenticator app' }),
    throttled: { seconds: 150, says: '3 minutes' },
  },
];

function setup() {
  const { server, fixtures } = gateServer();
  return { server, fresh: fixtures.users.fresh };
}

describe.each(methods)('The $choice setup screen', (method) => {
  it("shows its spinner while the setup call runs and 'Confirming...' while the code is checked", async () => {
    const { server, fresh } = setup();
    const steer = steerableServer(server);
    const releaseSetup = steer.hold(method.setupPath);
    const { user } = await chooseTwoFactor(method.choice, steer.server, fresh);

    expect(screen.getByRole('status')).toHaveTextContent(method.starting);
    releaseSetup();
    const field = await screen.findByLabelText(method.field);

    const releaseConfirm = steer.hold(method.confirmPath);
    await user.type(field, await method.code(server, fresh));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByRole('button', { name: 'Confirming...' })).toBeDisabled();
    releaseConfirm();

    expect(await screen.findByText('Portal content')).toBeInTheDocument();
  });

  it('after too many wrong codes, counts down the wait the server gives, with Confirm disabled and the code kept', async () => {
    const { server, fresh } = setup();
    const clock = new SimulatedClock();
    const { user } = await chooseTwoFactor(method.choice, server, fresh, { clock });
    const field = await screen.findByLabelText(method.field);
    const code = await method.code(server, fresh);
    // Five wrong codes lately, the oldest of which leaves the server's 15-minute window soon.
    const { seconds, says } = method.throttled;
    const insert = server.db.prepare('INSERT INTO failed_attempts (key, at) VALUES (?, ?)');
    for (let attempt = 0; attempt < 5; attempt += 1) insert.run(`code:${fresh.id}`, server.clock.now() - 15 * 60_000 + seconds * 1000);

    await user.type(field, `${code}{Enter}`);

    const line = await screen.findByText(`Too many attempts. You can try again in ${says}.`);
    expect(line).toBe(screen.getByRole('alert'));
    const confirm = screen.getByRole('button', { name: 'Confirm' });
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveAccessibleDescription(`Too many attempts. You can try again in ${says}.`);
    if (method.choice === 'Email Codes') {
      const resend = screen.getByRole('button', { name: 'Resend Email' });
      expect(resend).toBeDisabled();
      expect(resend).toHaveAccessibleDescription('You can resend the code when the wait is over.');
    }
    expect(field).toHaveValue(code);
    act(() => clock.increment(1000));
    expect(line).toBe(screen.getByRole('timer'));
    act(() => {
      for (let second = 1; second < seconds; second += 1) clock.increment(1000);
      server.clock.advance(seconds * 1000);
    });
    expect(line).toBeEmptyDOMElement();
    expect(confirm).toBeEnabled();
    expect(field).toHaveValue(code);
    // The kept code confirms while it is still the user's; an app shows a new one once its time has passed.
    const now = await method.code(server, fresh);
    if (now !== code) {
      await user.clear(field);
      await user.type(field, now);
    }
    await user.click(confirm);
    expect(await screen.findByText('Portal content')).toBeInTheDocument();
  });

  it("shows 'Setup Error' when the setup call fails, and Retry recovers", async () => {
    const { server, fresh } = setup();
    const steer = steerableServer(server);
    steer.failNext(method.setupPath);
    const { user } = await chooseTwoFactor(method.choice, steer.server, fresh);

    expect(await screen.findByRole('heading', { name: 'Setup Error' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(method.failure);

    const release = steer.hold(method.setupPath);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(screen.getByRole('button', { name: 'Retrying...' })).toBeDisabled();
    release();

    expect(await screen.findByRole('heading', { name: method.heading })).toBeInTheDocument();
    expect(await method.shown(fresh)).toBeInTheDocument();
  });

  it('goes back to the login screen with Back, clearing the stored token', async () => {
    const { server, fresh } = setup();
    const { user } = await chooseTwoFactor(method.choice, server, fresh);
    await screen.findByRole('heading', { name: method.heading });
    expect(window.localStorage.getItem('auth_token')).not.toBeNull();

    await user.click(screen.getByRole('button', { name: 'Back' }));

    expectSignedOutAtLogin();
  });
});
