// The view is the URL: the dashboard's date mode, custom days, selected day and chart mode in the
// query of / and /affiliate/{id} (see docs/product-rules.md, The view is the URL).
import { act, screen, waitFor } from '@testing-library/react';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { runOnDashboardDay } from '../../../tests/utils/dashboard-day.ts';
import { addRecentRows, daysAgo, today } from '../../../tests/utils/dashboard-rows.ts';
import { renderDashboard, waitForFigures } from '../../../tests/utils/dashboard-routes.tsx';
import { signInFixtureUser } from '../../../tests/utils/fixture-sign-in.ts';

runOnDashboardDay();

async function signedIn(name: 'parent' | 'admin' = 'parent') {
  const { server } = await signInFixtureUser(name);
  addRecentRows(server.db);
  return server;
}

const iso = (day: DateTime) => day.toISODate() ?? '';
const heading = (day: DateTime) => day.setLocale('en-US').toFormat('LLL d, yyyy');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const bar = (day: DateTime, series: string) => new RegExp(`^${escape(day.toFormat('M/d'))} ${series} `);
const pressedChart = () =>
  screen.getAllByRole('button', { pressed: true }).find((button) => /Chart$/.test(button.textContent ?? ''))?.textContent;

describe('the view is the URL', () => {
  it('opens the view a link names: range, custom days, selected day and chart', async () => {
    const server = await signedIn();
    const [start, end, day] = [daysAgo(10), daysAgo(1), daysAgo(2)];
    const query = `range=custom&start=${iso(start)}&end=${iso(end)}&day=${iso(day)}&chart=sales`;
    const { history } = renderDashboard(server, `/?${query}`);
    await waitForFigures();

    expect(screen.getByLabelText('Date range')).toHaveValue('custom');
    expect(screen.getByLabelText('Start date')).toHaveValue(iso(start));
    expect(screen.getByLabelText('End date')).toHaveValue(iso(end));
    expect(await screen.findByRole('heading', { name: `Sales Details for ${heading(day)}` })).toBeInTheDocument();
    expect(pressedChart()).toBe('Sales Chart');
    expect(history).toEqual([`/?${query}`]);
  });

  it('adds a history entry for each change, leaves the defaults out, and drops the day with the range', async () => {
    const server = await signedIn();
    const { user, history } = renderDashboard(server);
    await waitForFigures();
    const day = daysAgo(2);

    await user.click(await screen.findByRole('button', { name: bar(day, 'Referral Fees') }));
    await waitFor(() => expect(history.at(-1)).toBe(`/?day=${iso(day)}`));
    await user.click(screen.getByRole('button', { name: 'Sales Chart' }));
    await waitFor(() => expect(history.at(-1)).toBe(`/?day=${iso(day)}&chart=sales`));
    await user.selectOptions(screen.getByLabelText('Date range'), 'Current Month');
    await waitFor(() => expect(history.at(-1)).toBe('/?range=current&chart=sales'));
    await user.click(screen.getByRole('button', { name: 'Fees Chart' }));
    await user.selectOptions(screen.getByLabelText('Date range'), 'Last 30 days');

    await waitFor(() =>
      expect(history).toEqual([
        '/',
        `/?day=${iso(day)}`,
        `/?day=${iso(day)}&chart=sales`,
        '/?range=current&chart=sales',
        '/?range=current',
        '/',
      ]),
    );
  });

  it('makes one history entry of consecutive changes of the same custom day', async () => {
    const server = await signedIn();
    const { user, history } = renderDashboard(server);
    await waitForFigures();

    await user.selectOptions(screen.getByLabelText('Date range'), 'Custom Date Range');
    const start = screen.getByLabelText('Start date');
    await user.type(start, iso(daysAgo(20)));
    await user.clear(start);
    await user.type(start, iso(daysAgo(10)));
    await user.type(screen.getByLabelText('End date'), iso(daysAgo(5)));

    await waitFor(() =>
      expect(history).toEqual([
        '/',
        '/?range=custom',
        `/?range=custom&start=${iso(daysAgo(10))}`,
        `/?range=custom&start=${iso(daysAgo(10))}&end=${iso(daysAgo(5))}`,
      ]),
    );
  });

  it('shows the view of a URL it did not make (Back, Forward, a link)', async () => {
    const server = await signedIn();
    const { user, location } = renderDashboard(server, '/?range=previous');
    await waitForFigures();
    expect(screen.getByLabelText('Date range')).toHaveValue('previous');

    act(() => location.navigate(`/?day=${iso(today())}&chart=sales`));
    await waitFor(() => expect(screen.getByLabelText('Date range')).toHaveValue('last30'));
    expect(await screen.findByRole('heading', { name: `Sales Details for ${heading(today())}` })).toBeInTheDocument();
    expect(pressedChart()).toBe('Sales Chart');

    // The machine takes the user's next change from there. The last view stays on screen while
    // the new range's lists load: the day's heading goes with it once they are in.
    await user.selectOptions(screen.getByLabelText('Date range'), 'Current Month');
    await waitFor(() => expect(screen.queryByRole('heading', { name: /^Sales Details for/ })).not.toBeInTheDocument());
  });

  it('corrects bad values in place: each falls back to its default', async () => {
    const server = await signedIn();
    const outside = iso(daysAgo(40));
    const { history } = renderDashboard(server, `/affiliate/C1?range=weekly&day=${outside}&chart=pie`);
    await waitForFigures();

    expect(screen.getByLabelText('Date range')).toHaveValue('last30');
    expect(screen.queryByRole('heading', { name: /^Sales Details for/ })).not.toBeInTheDocument();
    await waitFor(() => expect(history).toEqual(['/affiliate/C1']));
  });

  it('corrects an impossible custom day in place, keeping the rest', async () => {
    const server = await signedIn();
    const { history } = renderDashboard(server, `/?range=custom&start=2026-02-30&end=${iso(daysAgo(3))}&chart=sales`);
    await waitForFigures();

    expect(screen.getByLabelText('Start date')).toHaveValue('');
    expect(screen.getByLabelText('End date')).toHaveValue(iso(daysAgo(3)));
    await waitFor(() => expect(history).toEqual([`/?range=custom&end=${iso(daysAgo(3))}&chart=sales`]));
  });

  it('keeps the range and chart, not the day, for another affiliate', async () => {
    const server = await signedIn();
    const day = daysAgo(2);
    const { user, history } = renderDashboard(server, `/?range=current&day=${iso(day)}&chart=sales`);
    await waitForFigures();

    await user.selectOptions(screen.getByLabelText('Affiliate'), 'Child One');
    expect(await screen.findByRole('heading', { level: 1, name: 'Child One Sales Dashboard' })).toBeInTheDocument();
    expect(screen.getByLabelText('Date range')).toHaveValue('current');
    expect(history).toEqual([`/?range=current&day=${iso(day)}&chart=sales`, '/affiliate/C1?range=current&chart=sales']);
  });

  it('shows the view a link to another affiliate names, its day too, corrected in place', async () => {
    const server = await signedIn();
    const day = daysAgo(2);
    const { location, history } = renderDashboard(server, `/?day=${iso(day)}`);
    await waitForFigures();

    // The same query as now.
    act(() => location.navigate(`/affiliate/C1?day=${iso(day)}`));
    expect(await screen.findByRole('heading', { level: 1, name: 'Child One Sales Dashboard' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: `Sales Details for ${heading(day)}` })).toBeInTheDocument();
    // The same view, written with the default chart.
    act(() => location.navigate(`/?chart=fees&day=${iso(day)}`));
    expect(await screen.findByRole('heading', { level: 1, name: 'Parent Travel Sales Dashboard' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: `Sales Details for ${heading(day)}` })).toBeInTheDocument();
    await waitFor(() => expect(history).toEqual([`/?day=${iso(day)}`, `/affiliate/C1?day=${iso(day)}`, `/?day=${iso(day)}`]));
  });

  it('drops the day from the URL in place when the header views the portal as another affiliate', async () => {
    const server = await signedIn('admin');
    const day = daysAgo(2);
    const { session, history } = renderDashboard(server, `/?range=current&day=${iso(day)}`);
    await waitForFigures();
    expect(await screen.findByRole('heading', { name: `Sales Details for ${heading(day)}` })).toBeInTheDocument();

    act(() => session.impersonation()?.send({ type: 'IMPERSONATION.SELECT', affiliateId: 'C1' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Child One Sales Dashboard' })).toBeInTheDocument();
    expect(screen.getByLabelText('Date range')).toHaveValue('current');
    await waitFor(() => expect(history).toEqual(['/?range=current']));
  });
});
