import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { addFixtures, createTestServer, signIn, type TestServer } from '../../../tests/utils/api-server.ts';
import { renderWithSession } from '../../../tests/utils/render-session.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';
import { TabBar } from './tab-bar.tsx';

async function signedInAs(name: 'admin' | 'parent') {
  const server = createTestServer({ now: Date.now() });
  const { users } = addFixtures(server.db, { now: server.clock.now() });
  const user = users[name];
  window.localStorage.setItem(
    'auth_token',
    JSON.stringify({ username: user.username, ...(await signIn(server, user.username, user.password)) }),
  );
  return server;
}

// The control is disabled until the affiliates have loaded.
async function loadedSelector() {
  const selector = await screen.findByRole('combobox', { name: 'View as Affiliate' });
  await waitFor(() => expect(selector).toBeEnabled());
  return selector;
}

/** Types into 'View as Affiliate' and chooses the affiliate's option (its text begins with its name, then its id). */
async function viewAs(user: UserEvent, typed: string, name: RegExp) {
  await user.click(await loadedSelector());
  await user.keyboard(typed);
  await user.click(screen.getByRole('option', { name }));
}

function renderLayout(server: TestServer, path = '/') {
  const location = memoryLocation({ path, record: true });
  const rendered = renderWithSession(
    <Router hook={location.hook}>
      <SiteHeader />
      <TabBar />
      <SiteFooter />
    </Router>,
    { server },
  );
  return { ...rendered, location };
}

describe('the layout of logged-in pages', () => {
  it('has a logo to the public site, Logout, the two tabs with the active one marked, and the footer year', async () => {
    const { user } = renderLayout(await signedInAs('parent'), '/reports');
    expect(screen.getByRole('link', { name: 'Affiliate Portal' })).toHaveAttribute('href', 'https://www.example.com');
    expect(screen.getByRole('link', { name: 'Reports' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('contentinfo')).toHaveTextContent(`© ${new Date().getFullYear()}`);
    expect(screen.queryByLabelText('View as Affiliate')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(window.localStorage.getItem('auth_token')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it("links the logo to the affiliate's page on the public site when an affiliate is selected", async () => {
    renderLayout(await signedInAs('parent'), '/affiliate/C1');
    expect(screen.getByRole('link', { name: 'Affiliate Portal' })).toHaveAttribute('href', 'https://www.example.com/?affiliate=C1');
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('View as Affiliate', () => {
  it('lets a superuser view the portal as an affiliate, and stop', async () => {
    const server = await signedInAs('admin');
    const { user, session, location } = renderLayout(server, '/reports');
    const parentName = server.db.prepare("SELECT name FROM affiliates WHERE affiliate_id = 'P1'").pluck().get() as string;
    await viewAs(user, 'P1', new RegExp(`^${parentName} P1`));
    expect(session.impersonation()?.getSnapshot().context.affiliateId).toBe('P1');
    expect(screen.getByText(`Viewing as ${parentName}`)).toBeInTheDocument();
    // The tab the user is on stays: Reports stays Reports.
    expect(location.history.at(-1)).toBe('/reports');
    expect(screen.getByRole('link', { name: 'Reports' })).toHaveAttribute('aria-current', 'page');

    await user.click(screen.getByRole('button', { name: `Stop viewing as ${parentName}` }));
    expect(session.impersonation()?.getSnapshot().context.affiliateId).toBeNull();
    expect(screen.queryByText(`Viewing as ${parentName}`)).not.toBeInTheDocument();
    expect(location.history.at(-1)).toBe('/reports');
    // The button went with its notice: focus is on the selector it reset, not lost to the page.
    expect(screen.getByRole('combobox', { name: 'View as Affiliate' })).toHaveFocus();
    expect(screen.getByRole('combobox', { name: 'View as Affiliate' })).toHaveValue('Own view (all affiliates)');
  });

  it("goes from an affiliate's dashboard (/affiliate/{id}) to / when another affiliate is chosen", async () => {
    const server = await signedInAs('admin');
    const { user, location } = renderLayout(server, '/affiliate/C1');
    await viewAs(user, 'P1', /^Parent Travel P1/);

    expect(location.history.at(-1)).toBe('/');
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  });

  it("keeps the dashboard's view in the URL, but the selected day, going from /affiliate/{id} to /", async () => {
    const server = await signedInAs('admin');
    const { user, location } = renderLayout(server, '/affiliate/C1?range=current&day=2026-11-03&chart=sales');
    await viewAs(user, 'P1', /^Parent Travel P1/);

    expect(location.history.at(-1)).toBe('/?range=current&chart=sales');
  });

  it('keeps the dashboard of all affiliates (/) where it is', async () => {
    const server = await signedInAs('admin');
    const { user, location } = renderLayout(server, '/');
    await viewAs(user, 'P1', /^Parent Travel P1/);

    expect(location.history).toEqual(['/']);
  });

  it('lists the own view, then every affiliate by name, its id and its parent, and finds one by id', async () => {
    const { user } = renderLayout(await signedInAs('admin'));
    await user.click(await loadedSelector());
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Own view (all affiliates)',
      'Child One C1 · Parent Travel',
      'Child Two C2 · Parent Travel',
      'Parent Travel P1',
      'Top Two T2',
    ]);
    await user.keyboard('c2');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Own view (all affiliates)',
      'Child Two C2 · Parent Travel',
    ]);
    await user.keyboard('{Enter}');
    expect(screen.getByText('Viewing as Child Two')).toBeInTheDocument();
  });

  it('lists the affiliates this user viewed as most recently first', async () => {
    const { user } = renderLayout(await signedInAs('admin'));
    await viewAs(user, 'Top', /^Top Two/);
    await viewAs(user, 'Child One', /^Child One/);
    await user.click(screen.getByRole('combobox', { name: 'View as Affiliate' }));
    expect(
      screen.getAllByRole('option').map((option) => option.getAttribute('aria-posinset') + ' ' + option.firstChild?.textContent),
    ).toEqual(['1 Own view (all affiliates)', '2 Child One', '3 Top Two', '4 Child Two', '5 Parent Travel']);
    expect(JSON.parse(window.localStorage.getItem('view_as_recent') ?? '')).toEqual({ admin: ['C1', 'T2'] });
  });

  it('keeps the choice through a reload of the tab, and forgets it at sign-out', async () => {
    const server = await signedInAs('admin');
    const first = renderLayout(server, '/reports');
    await viewAs(first.user, 'P1', /^Parent Travel P1/);
    // A reload: the page goes (nothing is stopped), a new one opens on the same tab's storage.
    first.unmount();
    const { user, session } = renderLayout(server, '/reports');
    expect(session.impersonation()?.getSnapshot().context.affiliateId).toBe('P1');
    expect(await screen.findByText('Viewing as Parent Travel')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'View as Affiliate' })).toHaveValue('Parent Travel'));

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(window.sessionStorage.getItem('view_as')).toBeNull();
  });

  it('sends impersonate_affiliate with every request while viewing as an affiliate', async () => {
    const server = await signedInAs('admin');
    const { session } = renderLayout(server);
    session.impersonation()?.send({ type: 'IMPERSONATION.SELECT', affiliateId: 'P1' });
    const { affiliateListSchema } = await import('../../api/schemas.ts');
    const scoped = await session.client.request('affiliates/', { schema: affiliateListSchema });
    expect(scoped.map((affiliate) => affiliate.affiliate_ID).sort()).toEqual(['C1', 'C2', 'P1']);
    const own = await session.client.request('affiliates/', { schema: affiliateListSchema, impersonate: false });
    expect(own.length).toBeGreaterThan(3);
  });

  it('ends viewing as an affiliate on logout', async () => {
    const server = await signedInAs('admin');
    const { user, session } = renderLayout(server);
    session.impersonation()?.send({ type: 'IMPERSONATION.SELECT', affiliateId: 'P1' });
    expect(session.impersonation()?.getSnapshot().context.affiliateId).toBe('P1');
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    // Viewing as an affiliate belongs to the signed-in session: it ends with it.
    expect(session.impersonation()).toBeNull();
    expect(screen.queryByText(/^Viewing as /)).not.toBeInTheDocument();
  });
});
