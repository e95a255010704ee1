// The dashboard's two routes as src/app/app.tsx has them (/ for all affiliates, /affiliate/{id}
// for one), without the gate and layout, for tests that render the dashboard in a memory location.
import { Route, Switch } from 'wouter';
import DashboardPage from '../../src/features/dashboard/dashboard-page.tsx';

export function DashboardRoutes() {
  return (
    <Switch>
      <Route path="/">
        <DashboardPage affiliateId={null} />
      </Route>
      <Route path="/affiliate/:affiliateId">{(params) => <DashboardPage affiliateId={params.affiliateId} />}</Route>
    </Switch>
  );
}
