import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { addFixtures, createTestServer, totpCode } from '../../../tests/utils/api-server.ts';
import { renderWithSession, steerableServer, submitLogin } from '../../../tests/utils/render-session.tsx';
import { gate, gateServer, signInTo } from '../../../tests/utils/auth-gate.tsx';

function setup() {
  const { server, fixtures } = gateServer();
  const parent = fixtures.users.parent;
  const secret = parent.totpSecret ?? '';
  return { server, parent, secret };
}

/** A six-digit code that is not the right one. */
const wrongCodeFor = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');

describe('TOTP verification screen', () => {
  it('asks a TOTP user for the code, refuses a wrong one, and opens the portal with the right one', async () => {
    const { server, parent, secret } = setup();
    const { user, dataLayer } = renderWithSession(gate, { server });

    await submitLogin(user, parent);

    expect(await screen.findByRole('heading', { level: 1, name: 'Enter 2FA Code' })).toBeInTheDocument();
    const field = screen.getByLabelText('Authentication Code');
    expect(field).toHaveAttribute('placeholder', 'Enter 6-digit code');
    expect(field).toHaveAttribute('maxLength', '6');
    expect(field).toHaveFocus();
    const verify = screen.getByRole('button', { name: 'Verify' });
    expect(verify).toBeDisabled();

    const right = await totpCode(secret, server.clock.now());
    await user.type(field, wrongCodeFor(right));
    expect(verify).toBeEnabled();
    await user.click(verify);
    expect(await screen.findByText('Invalid TOTP code. Please try again.')).toHaveAttribute('role', 'alert');
    expect(field).toHaveValue(wrongCodeFor(right));
    expect(screen.queryByText('Portal content')).not.toBeInTheDocument();

    await user.clear(field);
    await user.type(field, `${right}{Enter}`);

    expect(await screen.findByText('Portal content')).toBeInTheDocument();
    expect(dataLayer).toEqual([
      { event: 'login_success', method: 'password' },
      { event: 'login_2fa_success', method: 'totp' },
      { user_id: String(parent.id) },
    ]);
    const stored = JSON.parse(window.localStorage.getItem('auth_token') ?? 'null') as { username: string } | null;
    expect(stored?.username).toBe(parent.username);
  });

  it('enables Verify only with exactly six characters, and spends no attempt on fewer', async () => {
    const { server, parent, secret } = setup();
    const { user } = renderWithSession(gate, { server });
    await submitLogin(user, parent);
    const field = await screen.findByLabelText('Authentication Code');
    const verify = screen.getByRole('button', { name: 'Verify' });
    const right = await totpCode(secret, server.clock.now());

    await user.type(field, right.slice(0, 2));
    expect(verify).toBeDisabled();
    await user.type(field, right.slice(2, 5));
    expect(verify).toBeDisabled();
    // Enter in a short code sends nothing: no refusal, no attempt counted at the server.
    await user.type(field, '{Enter}');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    const attempts = server.db
      .prepare<[string], { count: number }>('SELECT COUNT(*) AS count FROM failed_attempts WHERE key = ?')
      .get(`code:${parent.id}`);
    expect(attempts?.count).toBe(0);

    await user.type(field, right.slice(5));
    expect(verify).toBeEnabled();
    await user.click(verify);
    expect(await screen.findByText('Portal content')).toBeInTheDocument();
  });

  it('after too many wrong codes, counts down the wait the server gives, with Verify disabled and the code kept', async () => {
    // A partial token that outlives the wait (the reference server's lasts 5 minutes by default).
    const server = createTestServer({ now: Date.now(), accessLifetimeSeconds: 3600 });
    const parent = addFixtures(server.db, { now: server.clock.now() }).users.parent;
    const secret = parent.totpSecret ?? '';
    const clock = new SimulatedClock();
    const { user } = renderWithSession(gate, { server, clock });
    await submitLogin(user, parent);
    const field = await screen.findByLabelText('Authentication Code');
    const verify = screen.getByRole('button', { name: 'Verify' });
    const wrong = wrongCodeFor(await totpCode(secret, server.clock.now()));
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await user.clear(field);
      await user.type(field, `${wrong}{Enter}`);
      expect(await screen.findByText('Invalid TOTP code. Please try again.')).toHaveAttribute('role', 'alert');
    }

    // The sixth is answered 429: the five wrong ones leave the server's 15-minute window in 15 minutes.
    await user.click(verify);
    // An error, said at once.
    const line = await screen.findByText('Too many attempts. You can try again in 15 minutes.');
    expect(line).toBe(screen.getByRole('alert'));
    expect(screen.queryByText(/Request was throttled/)).not.toBeInTheDocument();
    expect(verify).toBeDisabled();
    expect(verify).toHaveAccessibleDescription('Too many attempts. You can try again in 15 minutes.');
    expect(field).toHaveValue(wrong);

    const seconds = (count: number) =>
      act(() => {
        for (let second = 0; second < count; second += 1) clock.increment(1000);
        server.clock.advance(count * 1000);
      });
    // Then a timer, in minutes, rounded up, while two or more remain: the line changes, and is said, once a minute.
    seconds(1);
    expect(line).toHaveTextContent('Too many attempts. You can try again in 15 minutes.');
    expect(line).toBe(screen.getByRole('timer'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(line).toHaveAttribute('aria-live', 'polite');
    seconds(59);
    expect(line).toHaveTextContent('Too many attempts. You can try again in 14 minutes.');
    seconds(60 * 12);
    expect(line).toHaveTextContent('Too many attempts. You can try again in 2 minutes.');
    expect(line).toHaveAttribute('aria-live', 'polite');
    // Then in seconds, counting down each second, said by a screen reader at each half minute only.
    seconds(1);
    expect(line).toHaveTextContent('Too many attempts. You can try again in 119 seconds.');
    expect(line).toHaveAttribute('aria-live', 'off');
    seconds(29);
    expect(line).toHaveTextContent('Too many attempts. You can try again in 90 seconds.');
    expect(line).toHaveAttribute('aria-live', 'polite');
    seconds(89);
    expect(line).toHaveTextContent('Too many attempts. You can try again in 1 seconds.');
    expect(line).toHaveAttribute('aria-live', 'off');
    expect(verify).toBeDisabled();
    seconds(1);
    expect(line).toBeEmptyDOMElement();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    expect(verify).toBeEnabled();
    expect(field).toHaveValue(wrong);

    await user.clear(field);
    await user.type(field, await totpCode(secret, server.clock.now()));
    await user.click(verify);
    expect(await screen.findByText('Portal content')).toBeInTheDocument();
  });

  it("shows 'Verifying...' and disables Verify while the code is checked", async () => {
    const { server, parent, secret } = setup();
    const steer = steerableServer(server);
    const { user } = renderWithSession(gate, { server: steer.server });
    await submitLogin(user, parent);
    const field = await screen.findByLabelText('Authentication Code');

    const release = steer.hold('token/verify/');
    await user.type(field, await totpCode(secret, server.clock.now()));
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(screen.getByRole('status')).toHaveTextContent('Verifying...');
    expect(screen.getByRole('button', { name: 'Verify' })).toBeDisabled();
    release();
    expect(await screen.findByText('Portal content')).toBeInTheDocument();
  });

  it('accepts a pasted code with spaces in it', async () => {
    const { server, parent, secret } = setup();
    const { user } = renderWithSession(gate, { server });
    await submitLogin(user, parent);
    const field = await screen.findByLabelText('Authentication Code');

    const right = await totpCode(secret, server.clock.now());
    await user.click(field);
    await user.paste(`${right.slice(0, 3)} ${right.slice(3)}`);

    expect(field).toHaveValue(right);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Portal content')).toBeInTheDocument();
  });

  it("goes back to the login screen with 'Back to Login', clearing the stored token", async () => {
    const { server, parent } = setup();
    const { user, dataLayer } = await signInTo('Enter 2FA Code', server, parent);
    expect(window.localStorage.getItem('auth_token')).not.toBeNull();

    await user.click(screen.getByRole('button', { name: 'Back to Login' }));

    expect(screen.getByRole('heading', { name: 'Affiliate Login' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email or Username')).toHaveValue('');
    expect(window.localStorage.getItem('auth_token')).toBeNull();
    expect(dataLayer).toContainEqual({ event: 'logout' });
  });
});
