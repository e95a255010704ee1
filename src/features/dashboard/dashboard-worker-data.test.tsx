// The dashboard with its data service run in process (jsdom has no Worker): a 401 on one of its
// calls ends the session as any call of the API client does, and a day with more sales than a
// table renders at once still lists all of them.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_STORAGE_KEY } from '../../domain/auth-token.ts';
import { addFixtures, createTestServer, signIn, type TestServer } from '../../../tests/utils/api-server.ts';
import { runOnDashboardDay } from '../../../tests/utils/dashboard-day.ts';
import { addRecentRows, daysAgo, insertSale } from '../../../tests/utils/dashboard-rows.ts';
import { renderDashboard } from '../../../tests/utils/dashboard-routes.tsx';
import { steerableServer } from '../../../tests/utils/render-session.tsx';

runOnDashboardDay();

async function signedIn(server: TestServer) {
  const fixtures = addFixtures(server.db, { now: server.clock.now() });
  addRecentRows(server.db);
  const pair = await signIn(server, fixtures.users.parent.username, fixtures.users.parent.password);
  window.localStorage.setItem(TOKEN_STORAGE_KEY, JSON.stringify({ username: fixtures.users.parent.username, ...pair }));
}

describe("the dashboard's data calls", () => {
  it('end the session when the API answers one of them 401', async () => {
    const server = createTestServer({ now: Date.now() });
    await signedIn(server);
    const steer = steerableServer(server);
    steer.failNext('connection_fees/', { status: 401 });
    const { session } = renderDashboard(steer.server);

    await waitFor(() => expect(session.auth.getSnapshot().matches('signedOut')).toBe(true), { timeout: 5000 });
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });
});

describe('a day with many sales', () => {
  it('lists every one of them in Sales Details, the table busy while rows are added', async () => {
    const server = createTestServer({ now: Date.now() });
    await signedIn(server);
    const day = daysAgo(3);
    const many = 750;
    for (let i = 0; i < many; i++) {
      insertSale(server.db, {
        id: 50_000 + i,
        created: day.plus({ seconds: i }),
        amount: '10.00',
        affiliateId: 'P1',
        commissionPc: '10',
        policyNumber: `POL-9${String(i).padStart(4, '0')}`,
        traveler: ['Many', 'Sales'],
      });
    }
    const { user } = renderDashboard(server);

    await user.click(await screen.findByRole('button', { name: new RegExp(`^${day.toFormat('M/d')} Referral Fees `) }, { timeout: 5000 }));
    const heading = `Sales Details for ${day.setLocale('en-US').toFormat('LLL d, yyyy')}`;
    const table = await screen.findByRole('table', { name: heading });
    // Counted without role queries, which jsdom takes seconds over for hundreds of rows.
    const rows = () => table.querySelectorAll('tbody tr').length;
    expect(rows()).toBeLessThan(many);
    expect(table).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(rows()).toBe(many), { timeout: 10_000 });
    expect(table).not.toHaveAttribute('aria-busy');
    expect(within(table).getByText('POL-90749')).toBeInTheDocument();
  }, 30_000);
});
