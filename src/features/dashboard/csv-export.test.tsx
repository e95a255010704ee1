import { screen, waitFor, within } from '@testing-library/react';
import { Settings, type DateTime } from 'luxon';
import Papa from 'papaparse';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addFixtures, createTestServer, signIn } from '../../../tests/utils/api-server.ts';
import { runOnDashboardDay } from '../../../tests/utils/dashboard-day.ts';
import { addRecentRows, daysAgo, money, today } from '../../../tests/utils/dashboard-rows.ts';
import { renderDashboard, waitForFigures } from '../../../tests/utils/dashboard-routes.tsx';

// Days in a zone far from UTC (the machine's zone is often UTC), so that days counted in the wrong
// zone show: the chart, the tables and the CSV files must agree on them.
const ZONE = 'Asia/Tokyo';
let zoneBefore: typeof Settings.defaultZone;
beforeAll(() => {
  zoneBefore = Settings.defaultZone;
  Settings.defaultZone = ZONE;
});
afterAll(() => {
  Settings.defaultZone = zoneBefore;
});
runOnDashboardDay();

async function renderSignedIn() {
  const server = createTestServer({ now: Date.now() });
  const fixtures = addFixtures(server.db, { now: server.clock.now() });
  addRecentRows(server.db);
  const user = fixtures.users.parent;
  const pair = await signIn(server, user.username, user.password);
  window.localStorage.setItem('auth_token', JSON.stringify({ username: user.username, ...pair }));
  const result = renderDashboard(server);
  await waitForFigures();
  return result;
}

/** The files saved through a temporary <a download>, by name: the bytes of their object URLs. */
function savedFiles() {
  const blobs = new Map<string, Blob>();
  const files = new Map<string, Blob>();
  let next = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${++next}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.getAttribute('href') ?? '');
    if (blob) files.set(this.download, blob);
  });
  return files;
}

/** A saved file's bytes as a spreadsheet reads them: a UTF-8 byte order mark, then the records. */
async function records(file: Blob | undefined) {
  if (!file) throw new Error('no such file saved');
  const bytes = await new Promise<Uint8Array>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsArrayBuffer(file);
  });
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes);
  return Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
}

/** The cells of a table on screen, row by row. */
const tableCells = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
/** A grouped table's record as the table shows it: name, count, amount in the currency. */
const asShown = ([name, count, amount]: string[]) => [name, count, money(amount!)];

const iso = (time: DateTime) => time.toISODate();
const heading = (time: DateTime) => time.setLocale('en-US').toFormat('LLL d, yyyy');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the time zone of the days', () => {
  it("says beside the Date range selector which zone the days are counted in: the browser's", async () => {
    await renderSignedIn();
    expect(screen.getByText(`Days in ${ZONE}`)).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Date range' })).toHaveAccessibleDescription(`Days in ${ZONE}`);
  });
});

describe("the detail tables' Download CSV", () => {
  it('has a button under each heading, described by its table', async () => {
    await renderSignedIn();
    const buttons = screen.getAllByRole('button', { name: 'Download CSV' });
    expect(
      buttons.map(
        (button) =>
          button.getAttribute('aria-describedby') && document.getElementById(button.getAttribute('aria-describedby')!)?.textContent,
      ),
    ).toEqual(['Sales Details', 'Platform Sales', 'Connection Fee Details']);
    for (const button of buttons) expect(button).toBeEnabled();
  });

  it("saves every row of the range with the table's headings, days of the zone as YYYY-MM-DD, plain amounts", async () => {
    const files = savedFiles();
    const { user } = await renderSignedIn();
    const [sales, platform, fees] = screen.getAllByRole('button', { name: 'Download CSV' });
    const range = `${iso(today().minus({ days: 30 }))}-${iso(today())}`;

    await user.click(sales!);
    await waitFor(() => expect(files.has(`sales-details-${range}.csv`)).toBe(true));
    const salesRecords = await records(files.get(`sales-details-${range}.csv`));
    expect(salesRecords[0]).toEqual(['Date', 'Policy Number', 'Traveler', 'Amount', 'Referral Fees']);
    expect(salesRecords).toContainEqual([iso(daysAgo(2)), 'POL-1002', 'Bo Kim', '80.55', '6.04']);
    expect(salesRecords).toContainEqual([iso(daysAgo(2)), 'POL-1001', 'Ann Lee', '120.00', '15.00']);
    expect(salesRecords).toContainEqual([iso(daysAgo(5)), 'POL-1003', 'Cy Ng', '45.10', '4.51']);
    // The rows of the table on screen, in its order.
    const shown = within(screen.getByRole('table', { name: 'Sales Details' }))
      .getAllByRole('row')
      .slice(1);
    expect(salesRecords.slice(1).map((record) => record[1])).toEqual(shown.map((row) => within(row).getAllByRole('cell')[1]!.textContent));

    await user.click(platform!);
    await waitFor(() => expect(files.has(`platform-sales-${range}.csv`)).toBe(true));
    const platformRecords = await records(files.get(`platform-sales-${range}.csv`));
    expect(platformRecords[0]).toEqual(['Affiliate', 'Sales', 'Total Premium']);
    expect(platformRecords).toContainEqual([
      'Parent Travel',
      expect.stringMatching(/^\d+$/) as string,
      expect.stringMatching(/^\d+\.\d{2}$/) as string,
    ]);
    expect(platformRecords.slice(1).map(asShown)).toEqual(tableCells('Platform Sales'));

    await user.click(fees!);
    await waitFor(() => expect(files.has(`connection-fee-details-${range}.csv`)).toBe(true));
    const feeRecords = await records(files.get(`connection-fee-details-${range}.csv`));
    expect(feeRecords[0]).toEqual(['Connected Affiliate', 'Sales', 'Connection Fees']);
    expect(feeRecords.slice(1).map(asShown)).toEqual(tableCells('Connection Fee Details'));
  });

  it("saves the selected day's rows alone, named after the day", async () => {
    const files = savedFiles();
    const { user } = await renderSignedIn();
    const day = daysAgo(2);
    await user.click(await screen.findByRole('button', { name: new RegExp(`^${day.toFormat('M/d')} Referral Fees `) }));
    const details = await screen.findByRole('heading', { name: `Sales Details for ${heading(day)}` });
    const section = details.closest('section')!;

    await user.click(within(section).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(files.has(`sales-details-${iso(day)}.csv`)).toBe(true));
    expect((await records(files.get(`sales-details-${iso(day)}.csv`))).slice(1).map((record) => record.slice(0, 2))).toEqual([
      [iso(day), 'POL-1002'],
      [iso(day), 'POL-1001'],
    ]);
  });
});
