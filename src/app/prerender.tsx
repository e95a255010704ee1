// The login page for index.html, rendered at build time (vite.config.ts): what the app renders on
// /login signed out, from the app's own components, so the markup cannot drift from them.
import { renderToString } from 'react-dom/server';
import { env } from '../config/env.ts';
import { Root } from './root.tsx';
import { createSession } from '../session/session.ts';
import type { TokenStorage } from '../session/token-storage.ts';

/** Signed out, and staying so: nothing stored, nothing called. */
const noStorage: TokenStorage = { read: () => null, write: () => {}, subscribe: () => () => {} };

/** The markup of #root on `path` (a route whose signed-out page is the login form). */
export function renderSignedOutPage(path = '/login'): string {
  const session = createSession({
    baseUrl: env.apiBaseUrl,
    storage: noStorage,
    track: () => {},
    loadQrCode: () => Promise.resolve(),
    fetch: () => Promise.reject(new Error('The prerendered page makes no calls')),
  });
  session.start();
  try {
    return renderToString(<Root session={session} path={path} />);
  } finally {
    session.stop();
  }
}
