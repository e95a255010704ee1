import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { addFixtures, createTestServer, postJson, signIn } from '../../../tests/utils/api-server.ts';
import { renderWithSession, steerableServer } from '../../../tests/utils/render-session.tsx';
import { gate } from '../../../tests/utils/auth-gate.tsx';
import { makeTokenPair } from '../../../tests/utils/tokens.ts';

const storeToken = (username: string, pair: { access: string; refresh: string }) =>
  window.localStorage.setItem('auth_token', JSON.stringify({ username, ...pair }));

describe('Login gate', () => {
  it('shows the login screen without a stored token', () => {
    renderWithSession(gate);

    expect(screen.getByRole('heading', { name: 'Affiliate Login' })).toBeInTheDocument();
    expect(screen.queryByText('Portal content')).not.toBeInTheDocument();
  });

  it('shows the app content for a stored verified session', async () => {
    const server = createTestServer({ now: Date.now() });
    const { users } = addFixtures(server.db, { now: server.clock.now() });
    storeToken(users.parent.username, await signIn(server, users.parent.username, users.parent.password));

    const { dataLayer } = renderWithSession(gate, { server });

    expect(screen.getByText('Portal content')).toBeInTheDocument();
    expect(dataLayer).toEqual([{ user_id: String(users.parent.id) }]);
  });

  it('resumes at the code screen for a stored token that still needs its second factor', async () => {
    const server = createTestServer({ now: Date.now() });
    const { users } = addFixtures(server.db, { now: server.clock.now() });
    const { body } = await postJson(server, 'token/', { username: users.parent.username, password: users.parent.password });
    storeToken(users.parent.username, body as { access: string; refresh: string });

    renderWithSession(gate, { server });

    // The code screen's code loads with it here (no Login was pressed in this tab).
    expect(await screen.findByRole('heading', { name: 'Enter 2FA Code' })).toBeInTheDocument();
  });

  it("shows 'Restoring session...' while an expired session is refreshed, then the app content", async () => {
    const tenMinutes = 10 * 60_000;
    const server = createTestServer({ now: Date.now() - tenMinutes });
    const { users } = addFixtures(server.db, { now: server.clock.now() });
    storeToken(users.parent.username, await signIn(server, users.parent.username, users.parent.password));
    server.clock.set(Date.now());
    const steer = steerableServer(server);
    const release = steer.hold('token/refresh/');

    renderWithSession(gate, { server: steer.server });

    expect(screen.getByRole('status')).toHaveTextContent('Restoring session...');
    expect(screen.queryByText('Portal content')).not.toBeInTheDocument();
    release();
    expect(await screen.findByText('Portal content')).toBeInTheDocument();
  });
});

describe('the login gate, in the order of its rules', () => {
  it('asks to set up 2FA for a token without a 2FA method, even one that claims to be verified', async () => {
    storeToken('parent', makeTokenPair({ is_2fa_verified: true }));

    renderWithSession(gate);

    expect(await screen.findByRole('button', { name: 'Authenticator App' })).toBeInTheDocument();
    expect(screen.queryByText('Portal content')).not.toBeInTheDocument();
  });
});
