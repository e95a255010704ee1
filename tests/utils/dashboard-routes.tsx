// The dashboard's two routes as src/app/app.tsx has them (/ for all affiliates, /affiliate/{id}
// for one), without the gate and layout, for tests that render the dashboard in a memory location.
import { screen } from '@testing-library/react';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import DashboardPage from '../../src/features/dashboard/dashboard-page.tsx';
import type { TestServer } from './api-server.ts';
import { renderWithSession } from './render-session.tsx';

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

/** The dashboard on its routes at `path` (with its query), in a memory location that records its history. */
export function renderDashboard(server: TestServer, path = '/') {
  const location = memoryLocation({ path, record: true });
  const result = renderWithSession(
    <Router hook={location.hook}>
      <DashboardRoutes />
    </Router>,
    { server },
  );
  return { ...result, location, history: location.history };
}

/** Waits for the dashboard's figures: its Summary region. */
export const waitForFigures = () => screen.findByRole('region', { name: 'Summary' }, { timeout: 5000 });
