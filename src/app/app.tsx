// The application: the session, the routes (decisions.md section 1) and the shared layout.
// Gated routes show the login gate in place until the session is complete, then the route.
import { lazy, Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { AuthGate } from '../features/auth/auth-gate.tsx';
import { SiteFooter } from './layout/site-footer.tsx';
import { SiteHeader } from './layout/site-header.tsx';
import { TabBar } from './layout/tab-bar.tsx';
import type { Session } from './session.ts';
import { SessionProvider } from './session-context.tsx';

const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page.tsx'));
const ReportsPage = lazy(() => import('../features/reports/reports-page.tsx'));
const InvitePage = lazy(() => import('../features/invite/invite-page.tsx'));

function PageLoading() {
  return (
    <p role="status" className="page-loading">
      Loading...
    </p>
  );
}

/** A logged-in page: behind the gate, with the tab bar. */
function Gated({ children }: { children: ReactNode }) {
  return (
    <AuthGate>
      <TabBar />
      <div className="container page">
        <Suspense fallback={<PageLoading />}>{children}</Suspense>
      </div>
    </AuthGate>
  );
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/invite/:inviteId">
        {(params) => (
          <Suspense fallback={<PageLoading />}>
            <InvitePage inviteId={params.inviteId} />
          </Suspense>
        )}
      </Route>
      <Route path="/login">
        <AuthGate>
          <Redirect to="/" replace />
        </AuthGate>
      </Route>
      <Route path="/">
        <Gated>
          <DashboardPage affiliateId={null} />
        </Gated>
      </Route>
      <Route path="/affiliate/:affiliateId">
        {(params) => (
          <Gated>
            <DashboardPage affiliateId={params.affiliateId} />
          </Gated>
        )}
      </Route>
      <Route path="/reports">
        <Gated>
          <ReportsPage />
        </Gated>
      </Route>
      <Route>
        <Redirect to="/" replace />
      </Route>
    </Switch>
  );
}

export function App({ session }: { session: Session }) {
  return (
    <SessionProvider session={session}>
      <div className="app">
        <SiteHeader />
        <main className="app-main">
          <AppRoutes />
        </main>
        <SiteFooter />
      </div>
    </SessionProvider>
  );
}
