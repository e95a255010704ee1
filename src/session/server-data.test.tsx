import { act, screen } from '@testing-library/react';
import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { describe, expect, it } from 'vitest';
import { signIn } from '../../tests/utils/api-server.ts';
import { signInFixtureUser } from '../../tests/utils/fixture-sign-in.ts';
import { renderWithSession } from '../../tests/utils/render-session.tsx';
import { ServerDataProvider, useImpersonatedAffiliate } from './server-data.tsx';
import { useAuthSelector } from './session-context.tsx';

/** Reads the shared cache, and renders again a moment after it mounted. */
function Reader({ name }: { name: string }) {
  const { data } = useSWR(['shared key'], () => Promise.resolve(name));
  const [later, setLater] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLater(true), 10);
    return () => clearTimeout(timer);
  }, []);
  return <p>{`${name}: ${data ?? 'loading'}${later ? ', rendered again' : ''}`}</p>;
}

/** One view at a time, each in its own provider, as the routes have them. */
function Views() {
  const [view, setView] = useState('reports');
  return (
    <>
      <button type="button" onClick={() => setView('dashboard')}>
        Dashboard
      </button>
      <ServerDataProvider key={view}>
        <Reader name={view} />
      </ServerDataProvider>
    </>
  );
}

describe("the session's server data", () => {
  it('stays usable by a view whose provider replaced the one that first used the cache (Reports, then Dashboard)', async () => {
    const { user } = renderWithSession(<Views />);
    expect(await screen.findByText('reports: reports, rendered again')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Dashboard' }));
    // The cached answer, and no crash when the new view renders again after the old provider left.
    expect(await screen.findByText('dashboard: reports, rendered again')).toBeInTheDocument();
  });
});

/** What the signed-in views would show: an answer fetched once per cache. */
function SignedInView({ answers }: { answers: string[] }) {
  const signedIn = useAuthSelector((snapshot) => snapshot.matches('authenticated'));
  return signedIn ? (
    <ServerDataProvider>
      <Answer answers={answers} />
    </ServerDataProvider>
  ) : (
    <p>Signed out</p>
  );
}

function Answer({ answers }: { answers: string[] }) {
  const { data } = useSWR(['answer'], () => Promise.resolve(answers.shift() ?? 'none left'));
  return <p>{`Answer: ${data ?? 'loading'}`}</p>;
}

describe('a sign-in', () => {
  it('starts with nothing cached, even when the same user signs in again', async () => {
    const { server, user } = await signInFixtureUser('parent');
    const { session } = renderWithSession(<SignedInView answers={['first', 'second']} />, { server });
    expect(await screen.findByText('Answer: first')).toBeInTheDocument();

    act(() => session.auth.send({ type: 'LOGOUT' }));
    expect(await screen.findByText('Signed out')).toBeInTheDocument();
    const pair = await signIn(server, user.username, user.password, user.method ?? 'email');
    act(() => session.signIn({ username: user.username, ...pair }));

    expect(await screen.findByText('Answer: second')).toBeInTheDocument();
  });
});

function ViewedAs() {
  return <p>{`Viewed as: ${useImpersonatedAffiliate() ?? 'nobody'}`}</p>;
}

describe('the affiliate viewed as', () => {
  it('is nobody while signed out, when there is no impersonation to read', () => {
    window.localStorage.clear();
    renderWithSession(<ViewedAs />);
    expect(screen.getByText('Viewed as: nobody')).toBeInTheDocument();
  });
});
