// The login screen: 'Email or Username', 'Password', Login, the error line, and 'Signing in...'
// while the password is checked; after the server ended the session, a line that says so. No client-side field checks: whatever is typed goes to the
// server, and stays in the form after an error.
// The page may have shown this form before the app ran (prerendered into index.html): what was
// typed into it meanwhile is taken over, and a Login pressed meanwhile is sent once the app runs.
import { useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { selectIsPending, selectIsSessionEnded } from '../../../machines/auth.ts';
import { Alert } from '../../components/alert.tsx';
import { useFocusKeptWhilePending } from '../../components/focus-if-lost.ts';
import { Spinner } from '../../components/spinner.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useAuthSelector, useSession } from '../../session/session-context.tsx';
import { AuthCard } from '../../components/auth-card.tsx';
import { takeSignInRequest, typedCredentials } from './prerendered-login.ts';
import { codeScreens } from './code-screens.ts';

export function LoginScreen() {
  const { auth } = useSession();
  const signingIn = useAuthSelector(selectIsPending);
  const canSubmit = useAuthSelector((snapshot) => snapshot.can({ type: 'LOGIN.SUBMIT', username: '', password: '' }));
  const error = useAuthSelector((snapshot) => snapshot.context.error);
  const ended = useAuthSelector(selectIsSessionEnded);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const errorId = useId();
  const form = useRef<HTMLFormElement>(null);
  useFocusKeptWhilePending(signingIn);

  // The fields start as the browser holds them: typed into the prerendered form, or filled in by
  // a password manager, before the app ran. Before the first paint, so nothing flickers.
  useLayoutEffect(() => {
    if (!form.current) return;
    const typed = typedCredentials(form.current);
    setUsername(typed.username);
    setPassword(typed.password);
    if (takeSignInRequest(form.current.ownerDocument)) {
      codeScreens.load();
      auth.send({ type: 'LOGIN.SUBMIT', ...typed });
    }
  }, [auth]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    codeScreens.load();
    auth.send({ type: 'LOGIN.SUBMIT', username, password });
  }

  return (
    <AuthCard title="Affiliate Login">
      {ended && (
        <p role="status" className="notice">
          Your session has ended. Please sign in again.
        </p>
      )}
      {/* method="dialog": outside a dialog the browser's own submission sends nothing anywhere. */}
      <form ref={form} method="dialog" onSubmit={submit} noValidate>
        <TextField
          label="Email or Username"
          name="username"
          value={username}
          onChange={setUsername}
          autoComplete="username"
          describedBy={error ? errorId : undefined}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          describedBy={error ? errorId : undefined}
        />
        <Alert id={errorId} message={error} />
        <div className="auth-actions">
          <button type="submit" className="button-primary" disabled={!canSubmit}>
            Login
          </button>
        </div>
        {signingIn ? <Spinner label="Signing in..." /> : null}
      </form>
    </AuthCard>
  );
}
