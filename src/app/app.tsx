// The application: the session, the routes and the shared layout. /invite/:inviteId is open; the
// others show the login gate in place until the session is complete, then the route; unknown
// paths go to /.
// The dashboard appears without a Suspense fallback, which would add React's reveal throttle.
import { lazy, Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { ErrorBoundary } from '../components/error-boundary.tsx';
import { AuthGate } from '../features/auth/auth-gate.tsx';
import { lazyModule, useLazyModule } from '../components/lazy-module.ts';
import { SiteFooter } from './layout/site-footer.tsx';
import { SiteHeader } from './layout/site-header.tsx';
import type { Session } from '../session/session.ts';
import { SessionProvider } from '../session/session-context.tsx';

const ReportsPage = lazy(() => import('../features/reports/reports-page.tsx'));
const InvitePage = lazy(() => import('../features/invite/invite-page.tsx'));

function PageLoading() {
  return (
    <p role="status" className="page-loading">
      Loading...
    </p>
  );
}

/** A page's lazy code and its view: a failure of either shows on the page, never a blank app. */
function Page({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return (
    <ErrorBoundary what="This page" resetKey={location}>
      <Suspense fallback={<PageLoading />}>{children}</Suspense>
    </ErrorBoundary>
  );
}

const dashboardPage = lazyModule(() => import('../features/dashboard/dashboard-page.tsx'));

function Dashboard({ affiliateId }: { affiliateId: string | null }) {
  const DashboardPage = useLazyModule(dashboardPage)?.default;
  return DashboardPage ? <DashboardPage affiliateId={affiliateId} /> : <PageLoading />;
}

// The tab bar loads with the first logged-in page's code, not with /login; its row is kept
// meanwhile, so the page does not move when it arrives. Should its code fail to load, the row
// stays empty and the page's own error line says why.
const tabBar = lazyModule(() => import('./layout/tab-bar.tsx').catch(() => null));

function Tabs() {
  const TabBar = useLazyModule(tabBar)?.TabBar;
  return TabBar ? <TabBar /> : <div className="tab-bar" />;
}

/** A logged-in page: behind the gate, with the tab bar. */
function Gated({ children }: { children: ReactNode }) {
  return (
    <AuthGate>
      <Tabs />
      <div className="container page">
        <Page>{children}</Page>
      </div>
    </AuthGate>
  );
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/invite/:inviteId">
        {(params) => (
          <Page>
            <InvitePage inviteId={params.inviteId} />
          </Page>
        )}
      </Route>
      <Route path="/login">
        <AuthGate>
          <Redirect to="/" replace />
        </AuthGate>
      </Route>
      <Route path="/">
        <Gated>
          <Dashboard affiliateId={null} />
        </Gated>
      </Route>
      <Route path="/affiliate/:affiliateId">
        {(params) => (
          <Gated>
            <Dashboard affiliateId={params.affiliateId} />
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
