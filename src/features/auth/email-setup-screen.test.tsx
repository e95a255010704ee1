import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { addFixtures, createTestServer, type TestServer } from '../../../tests/utils/api-server.ts';
import { renderWithSession, steerableServer, submitLogin } from '../../../tests/utils/render-session.tsx';
import { AuthGate } from './auth-gate.tsx';

function setup() {
  const server = createTestServer({ now: Date.now() });
  const fixtures = addFixtures(server.db, { now: server.clock.now() });
  return { server, fresh: fixtures.users.fresh };
}

const gate = (
  <AuthGate>
    <p>Portal content</p>
  </AuthGate>
);

const newestCode = (server: TestServer, email: string) => server.outbox(email)[0]?.code ?? '';

async function chooseEmailCodes(server: TestServer, fresh: { username: string; password: string }, clock?: SimulatedClock) {
  const rendered = renderWithSession(gate, { server, clock });
  await submitLogin(rendered.user, fresh);
  await screen.findByRole('heading', { name: 'Two-Factor Authentication Required' });
  await rendered.user.click(screen.getByRole('button', { name: 'Email Codes' }));
  return rendered;
}

describe('E-mail setup screen', () => {
  it('says where the confirmation e-mail went, and confirms with the e-mailed code', async () => {
    const { server, fresh } = setup();
    const { user, dataLayer } = await chooseEmailCodes(server, fresh);

    expect(await screen.findByRole('heading', { level: 1, name: 'Confirm Email 2FA Setup' })).toBeInTheDocument();
    expect(screen.getByText(`A confirmation email has been sent to ${fresh.email}.`)).toBeInTheDocument();
    const field = screen.getByLabelText('Email Verification Code');
    const confirm = screen.getByRole('button', { name: 'Confirm' });
    expect(confirm).toBeDisabled();

    await user.type(field, '{Enter}');
    expect(await screen.findByText('Please enter a token')).toHaveAttribute('role', 'alert');

    await user.type(field, newestCode(server, fresh.email));
    expect(confirm).toBeEnabled();
    await user.click(confirm);

    expect(await screen.findByText('Portal content')).toBeInTheDocument();
    expect(dataLayer).toContainEqual({ user_id: String(fresh.id) });
  });

  it("shows 'Setting up Email 2FA' while the e-mail is sent and 'Confirming...' while the code is checked", async () => {
    const { server, fresh } = setup();
    const steer = steerableServer(server);
    const releaseSetup = steer.hold('2fa/email/setup/');
    const { user } = await chooseEmailCodes(steer.server, fresh);

    expect(screen.getByRole('status')).toHaveTextContent('Setting up Email 2FA');
    releaseSetup();
    const field = await screen.findByLabelText('Email Verification Code');

    const releaseConfirm = steer.hold('2fa/email/confirm_setup/');
    await user.type(field, newestCode(server, fresh.email));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByRole('button', { name: 'Confirming...' })).toBeDisabled();
    releaseConfirm();

    expect(await screen.findByText('Portal content')).toBeInTheDocument();
  });

  it('sends a new e-mail with Resend Email for the same device, whose code confirms', async () => {
    const { server, fresh } = setup();
    const steer = steerableServer(server);
    const clock = new SimulatedClock();
    const { user } = await chooseEmailCodes(steer.server, fresh, clock);
    await screen.findByRole('heading', { name: 'Confirm Email 2FA Setup' });
    // The setup's e-mail was just sent: Resend waits 30 s, counting down below it.
    const resend = screen.getByRole('button', { name: 'Resend Email' });
    expect(resend).toBeDisabled();
    expect(screen.getByText('You can ask for a new code in 30 s.')).toHaveAttribute('aria-live', 'polite');
    act(() => {
      for (let second = 0; second < 30; second += 1) clock.increment(1000);
    });
    expect(screen.queryByText(/You can ask for a new code/)).not.toBeInTheDocument();

    // Resend asks token/send-email/ for a new code for the same device.
    const release = steer.hold('token/send-email/');
    await user.click(resend);
    expect(resend).toBeDisabled();
    expect(resend).toHaveAttribute('aria-busy', 'true');
    release();

    expect(await screen.findByText('A new code has been sent.')).toBeInTheDocument();
    expect(server.outbox(fresh.email)).toHaveLength(2);
    const second = newestCode(server, fresh.email);
    expect(second).toMatch(/^\d{6}$/);
    await user.type(screen.getByLabelText('Email Verification Code'), second);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Portal content')).toBeInTheDocument();
  });

  it("says under 'HTTP Error: 400' to use the newest e-mail's code when a code is refused", async () => {
    const { server, fresh } = setup();
    const { user } = await chooseEmailCodes(server, fresh);
    const field = await screen.findByLabelText('Email Verification Code');
    const first = newestCode(server, fresh.email);

    // Back, and the setup again: a new e-mail for the same device, whose code replaces the first.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await submitLogin(user, fresh);
    await user.click(await screen.findByRole('button', { name: 'Email Codes' }));
    await screen.findByRole('heading', { name: 'Confirm Email 2FA Setup' });
    expect(server.outbox(fresh.email)).toHaveLength(2);
    await user.type(screen.getByLabelText('Email Verification Code'), `${first}{Enter}`);

    expect(await screen.findByText('HTTP Error: 400')).toHaveAttribute('role', 'alert');
    const hint = screen.getByText('The code was not accepted. Use the code from the newest e-mail.');
    expect(hint).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByLabelText('Email Verification Code')).toHaveAccessibleDescription(
      'HTTP Error: 400 The code was not accepted. Use the code from the newest e-mail.',
    );
    expect(field).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText('Email Verification Code'));
    await user.type(screen.getByLabelText('Email Verification Code'), newestCode(server, fresh.email));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Portal content')).toBeInTheDocument();
  });

  it('after too many wrong codes, counts down the wait the server gives, with Confirm disabled and the code kept', async () => {
    const { server, fresh } = setup();
    const clock = new SimulatedClock();
    const { user } = await chooseEmailCodes(server, fresh, clock);
    const field = await screen.findByLabelText('Email Verification Code');
    const code = newestCode(server, fresh.email);
    // Five wrong codes lately, the oldest of which leaves the server's 15-minute window in 8 s.
    const insert = server.db.prepare('INSERT INTO failed_attempts (key, at) VALUES (?, ?)');
    for (let attempt = 0; attempt < 5; attempt += 1) insert.run(`code:${fresh.id}`, server.clock.now() - 15 * 60_000 + 8_000);

    await user.type(field, `${code}{Enter}`);

    const line = await screen.findByText('Too many attempts. You can try again in 0:08.');
    expect(line).toHaveAttribute('aria-live', 'polite');
    const confirm = screen.getByRole('button', { name: 'Confirm' });
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveAccessibleDescription('Too many attempts. You can try again in 0:08.');
    expect(field).toHaveValue(code);
    act(() => {
      for (let second = 0; second < 8; second += 1) clock.increment(1000);
      server.clock.advance(8_000);
    });
    expect(line).toBeEmptyDOMElement();
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    expect(await screen.findByText('Portal content')).toBeInTheDocument();
  });

  it("shows 'Setup Error' when the setup call fails, and Retry recovers", async () => {
    const { server, fresh } = setup();
    const steer = steerableServer(server);
    steer.failNext('2fa/email/setup/');
    const { user } = await chooseEmailCodes(steer.server, fresh);

    expect(await screen.findByRole('heading', { name: 'Setup Error' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to setup email 2FA');

    const release = steer.hold('2fa/email/setup/');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(screen.getByRole('button', { name: 'Retrying...' })).toBeDisabled();
    release();

    expect(await screen.findByRole('heading', { name: 'Confirm Email 2FA Setup' })).toBeInTheDocument();
    expect(screen.getByText(`A confirmation email has been sent to ${fresh.email}.`)).toBeInTheDocument();
  });

  it('goes back to the login screen with Back, clearing the stored token', async () => {
    const { server, fresh } = setup();
    const { user } = await chooseEmailCodes(server, fresh);
    await screen.findByRole('heading', { name: 'Confirm Email 2FA Setup' });

    await user.click(screen.getByRole('button', { name: 'Back' }));

    expect(screen.getByRole('heading', { name: 'Affiliate Login' })).toBeInTheDocument();
    expect(window.localStorage.getItem('auth_token')).toBeNull();
  });
});
