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
