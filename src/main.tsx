// Start-up: the tag manager, the session (auth actor + API client), and the React tree.
import { dataLayerOf, loadTagManager, pushToDataLayer } from './session/data-layer.ts';
import { mountApp } from './app/mount.tsx';
import { createSession } from './session/session.ts';
import { createTokenStorage } from './session/token-storage.ts';
import { env } from './config/env.ts';
import { loadQrCode } from './features/auth/qr-code.tsx';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root to render into');

// window.dataLayer exists from start-up, with a tag manager or without. The tag manager records
// the page's URL, and an invite's id is a secret that creates an account: on an invite page it
// loads only once the user has left it (the invite page starts it then).
if (env.gtmId && !location.pathname.startsWith('/invite/')) loadTagManager(window, env.gtmId);
else dataLayerOf(window);

const session = createSession({
  baseUrl: env.apiBaseUrl,
  storage: createTokenStorage(window.localStorage, window),
  track: (entry) => pushToDataLayer(window, entry),
  loadQrCode,
});
session.start();

mountApp(container, session);
