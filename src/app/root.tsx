// The whole React tree of the page: the same for the browser and for the login page prerendered
// at build time (src/app/prerender.tsx), so that the app takes that markup over as its own.
import { StrictMode } from 'react';
import { Router } from 'wouter';
import { App } from './app.tsx';
import type { Session } from '../session/session.ts';

/** `path` is the route to render outside a browser; in one, the address bar's. */
export function Root({ session, path }: { session: Session; path?: string }) {
  return (
    <StrictMode>
      <Router ssrPath={path}>
        <App session={session} />
      </Router>
    </StrictMode>
  );
}
