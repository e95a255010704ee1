// Puts the app into the page. Where index.html's prerendered login form shows and the app's first
// screen is that form, React takes its markup over as its own (hydration): what was typed into
// it, where the focus is, and a Login pressed meanwhile are kept. Anywhere else the app renders
// afresh, replacing the prerendered markup, hidden or not, in the same task as its first screen.
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot, type Root as ReactRoot } from 'react-dom/client';
import { prerenderMarks } from '../features/auth/prerendered-login.ts';
import { Root } from './root.tsx';
import type { Session } from '../session/session.ts';

export function mountApp(container: HTMLElement, session: Session): ReactRoot {
  const html = container.ownerDocument.documentElement;
  // From here on a Login is the app's to handle; the inline script stands down.
  html.setAttribute(prerenderMarks.started, '');
  const app = <Root session={session} />;

  const takesOver =
    container.firstElementChild !== null && !html.hasAttribute(prerenderMarks.hidden) && session.auth.getSnapshot().matches('signedOut');
  if (takesOver) return hydrateRoot(container, app);

  // A Login pressed on a form that is about to go is not sent.
  html.removeAttribute(prerenderMarks.asked);
  const root = createRoot(container);
  flushSync(() => root.render(app));
  html.removeAttribute(prerenderMarks.hidden);
  return root;
}
