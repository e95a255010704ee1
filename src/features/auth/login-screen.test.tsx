import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithSession, steerableServer, submitLogin } from '../../../tests/utils/render-session.tsx';
import { gate, gateServer } from '../../../tests/utils/auth-gate.tsx';

describe('Login screen', () => {
  it('shows the login form: the title, both fields, Login, and no error', () => {
    renderWithSession(gate);

    expect(screen.getByRole('heading', { level: 1, name: 'Affiliate Login' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email or Username')).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('rejects a wrong password with the spec text and keeps what was typed', async () => {
    const { server, fixtures } = gateServer();
    const { user } = renderWithSession(gate, { server });

    await submitLogin(user, { username: fixtures.users.parent.username, password: 'not-the-password' });

    expect(await screen.findByText('Login unsuccessful. Please try again.')).toHaveAttribute('role', 'alert');
    expect(screen.getByLabelText('Email or Username')).toHaveValue(fixtures.users.parent.username);
    expect(screen.getByLabelText('Password')).toHaveValue('not-the-password');
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
    expect(window.localStorage.getItem('auth_token')).toBeNull();
  });

  it('sends empty fields to the server rather than checking them itself', async () => {
    const { server } = gateServer();
    const { user } = renderWithSession(gate, { server });

    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByText('Login unsuccessful. Please try again.')).toBeInTheDocument();
  });

  it('says an error occurred when the server cannot be reached', async () => {
    const { server, fixtures } = gateServer();
    const steer = steerableServer(server);
    steer.failNext('token/');
    const { user } = renderWithSession(gate, { server: steer.server });

    await submitLogin(user, fixtures.users.parent);

    expect(await screen.findByText('An error occurred during login.')).toHaveAttribute('role', 'alert');
  });

  it("shows 'Signing in...' and disables Login while the password is checked", async () => {
    const { server, fixtures } = gateServer();
    const steer = steerableServer(server);
    const release = steer.hold('token/');
    const { user } = renderWithSession(gate, { server: steer.server });

    await submitLogin(user, fixtures.users.parent);

    expect(screen.getByRole('status')).toHaveTextContent('Signing in...');
    expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled();

    release();
    expect(await screen.findByRole('heading', { name: 'Enter 2FA Code' })).toBeInTheDocument();
  });

  it('signs in with the e-mail address as well as the username', async () => {
    const { server, fixtures } = gateServer();
    const { user } = renderWithSession(gate, { server });

    await submitLogin(user, { username: fixtures.users.parent.email, password: fixtures.users.parent.password });

    expect(await screen.findByRole('heading', { name: 'Enter 2FA Code' })).toBeInTheDocument();
  });

  it('stores the partial token and records login_success after the password is accepted', async () => {
    const { server, fixtures } = gateServer();
    const { user, dataLayer } = renderWithSession(gate, { server });

    await submitLogin(user, fixtures.users.parent);

    await screen.findByRole('heading', { name: 'Enter 2FA Code' });
    expect(dataLayer).toContainEqual({ event: 'login_success', method: 'password' });
    const stored = JSON.parse(window.localStorage.getItem('auth_token') ?? 'null') as Record<string, unknown> | null;
    expect(stored?.username).toBe(fixtures.users.parent.username);
    expect(typeof stored?.access).toBe('string');
    expect(typeof stored?.refresh).toBe('string');
  });

  it('shows and hides the password with the toggle, named for what it does', async () => {
    const { user } = renderWithSession(gate);
    const password = screen.getByLabelText('Password');
    await user.type(password, 'secret words');

    const show = screen.getByRole('button', { name: 'Show password' });
    expect(password).toHaveAttribute('type', 'password');
    // Its name says what it does; no pressed state contradicts it.
    expect(show).not.toHaveAttribute('aria-pressed');

    await user.click(show);
    expect(password).toHaveAttribute('type', 'text');
    expect(password).toHaveValue('secret words');
    const hide = screen.getByRole('button', { name: 'Hide password' });
    expect(hide).not.toHaveAttribute('aria-pressed');

    await user.click(hide);
    expect(password).toHaveAttribute('type', 'password');
  });

  it('does not submit the form when the toggle is pressed', async () => {
    const { user, dataLayer } = renderWithSession(gate);

    await user.click(screen.getByRole('button', { name: 'Show password' }));

    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(dataLayer).toEqual([]);
  });
});
