import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { registrationResponseSchema } from '../../api/schemas.ts';
import { postJson } from '../../../tests/utils/api-server.ts';
import { renderWithSession, submitLogin } from '../../../tests/utils/render-session.tsx';
import { gate, gateServer } from '../../../tests/utils/auth-gate.tsx';

const GREETING = 'Your account is created. One more step: set up two-factor authentication.';

describe('2FA setup-required screen', () => {
  it('greets a new account that the invite page signed in', async () => {
    const { server, fixtures } = gateServer();
    const { session } = renderWithSession(gate, { server });
    const answer = await postJson(server, 'affiliates/invites/register/', {
      email: 'new@fixtures.example',
      password: 'correct-horse-1',
      invite_id: fixtures.invites.valid,
    });
    const registered = registrationResponseSchema.parse(answer.body);

    // What the invite page does once the account is created.
    act(() => session.signIn({ username: registered.user.username, ...registered.tokens }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Two-Factor Authentication Required' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(GREETING);
    expect(screen.getByRole('button', { name: 'Authenticator App' })).toBeEnabled();
  });

  it('does not greet an account that signed in with its password', async () => {
    const { server, fixtures } = gateServer();
    const { user } = renderWithSession(gate, { server });

    await submitLogin(user, fixtures.users.fresh);

    expect(await screen.findByRole('heading', { level: 1, name: 'Two-Factor Authentication Required' })).toBeInTheDocument();
    expect(screen.queryByText(GREETING)).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
