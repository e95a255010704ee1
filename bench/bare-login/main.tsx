// The yardstick of /login's LCP in the browser bench: a bare React 19 page that renders what a
// first visitor of /login sees (the header, the 'Affiliate Login' card with its form, the footer)
// with the portal's own styles, and nothing else: no router, session, API client or tag manager.
// The bench builds it with Vite in each run and serves it as it serves the portal.
import { StrictMode, useId, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import '../../src/styles.css';
import '../../src/components/components.css';
import '../../src/features/auth/auth.css';

function LoginForm() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [visible, setVisible] = useState(false);
  const usernameId = useId();
  const passwordId = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => event.preventDefault();
  return (
    <form onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={usernameId}>Email or Username</label>
        <input
          id={usernameId}
          name="username"
          type="text"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          autoComplete="username"
        />
      </div>
      <div className="field">
        <label htmlFor={passwordId}>Password</label>
        <div className="password-field">
          <input
            id={passwordId}
            name="password"
            type={visible ? 'text' : 'password'}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            autoComplete="current-password"
          />
          <button
            type="button"
            className="password-field__toggle"
            aria-controls={passwordId}
            aria-pressed={visible}
            onClick={() => setVisible((shown) => !shown)}
          >
            {visible ? 'Hide password' : 'Show password'}
          </button>
        </div>
      </div>
      <div className="auth-actions">
        <button type="submit" className="button-primary">
          Login
        </button>
      </div>
    </form>
  );
}

function Page() {
  return (
    <div className="app">
      <header className="app-header">
        <div className="container app-header__inner">
          <a className="app-header__logo" href="https://www.example.com">
            <svg aria-hidden="true" width="28" height="28" viewBox="0 0 28 28" focusable="false">
              <circle cx="14" cy="14" r="13" fill="var(--color-teal)" />
              <path d="M7 17 L14 8 L21 17 Z" fill="var(--color-surface)" />
              <circle cx="14" cy="19.5" r="2.5" fill="var(--color-pink)" />
            </svg>
            <span>Affiliate Portal</span>
          </a>
        </div>
      </header>
      <main className="app-main">
        <div className="auth-screen">
          <div className="card auth-card">
            <h1 tabIndex={-1}>Affiliate Login</h1>
            <LoginForm />
          </div>
        </div>
      </main>
      <footer className="app-footer">
        <div className="container">
          <p>© {new Date().getFullYear()} Example Travel Insurance</p>
        </div>
      </footer>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Page />
  </StrictMode>,
);
