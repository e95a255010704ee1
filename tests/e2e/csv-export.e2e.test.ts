// The detail tables' CSV export in a real Chromium against the built portal and fresh demo data,
// signed in as globetrotter in a browser whose zone is far from UTC: each table's 'Download CSV'
// saves a file (the download event), parsed here with papaparse: its name, the byte order mark,
// the table's headings, every row (not only the 20 shown), a row's values, text guarded against
// formula injection, and the selected day's rows alone. And the 'Days in {zone}' line.
import fs from 'node:fs';
import { DateTime } from 'luxon';
import Papa from 'papaparse';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './checks.ts';
import { setUpPortal } from './harness.ts';
import { expectVisible, signedInPage, step } from './session.ts';

const ZONE = 'Pacific/Auckland';
const SCREEN = 'dashboard (CSV export)';
const HEADING = 'Globetrotter Travel Sales Dashboard';

/** A direct sale of Globetrotter Travel a few minutes ago whose traveller's name a spreadsheet would run as a formula. */
const FORMULA_SALE = {
  id: 990_001,
  policy: 'POL-E2E-CSV',
  first: '=HYPERLINK("http://example.com")',
  last: 'Doe',
  amount: '42.50',
  commission: '10',
};
const formulaSaleAt = DateTime.now().minus({ minutes: 5 });

const e2e = setUpPortal();

beforeAll(() => {
  e2e.portal.db
    .prepare(
      'INSERT INTO payment_events (id, created, amount, affiliate_id, commission_pc, product, policies) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .run(
      FORMULA_SALE.id,
      formulaSaleAt.toUTC().toISO(),
      FORMULA_SALE.amount,
      'AFF-100',
      FORMULA_SALE.commission,
      'Single Trip',
      JSON.stringify([
        { policy_number: FORMULA_SALE.policy, travelers: [{ first_name: FORMULA_SALE.first, last_name: FORMULA_SALE.last }] },
      ]),
    );
});

async function openDashboard(timezoneId = ZONE): Promise<Page> {
  const page = e2e.track(await signedInPage(e2e.browser, e2e.portal, 'globetrotter', { context: { timezoneId } }));
  await expectVisible(page, SCREEN, page.getByRole('heading', { level: 1, name: HEADING, exact: true }), `the heading '${HEADING}'`);
  await expectVisible(page, SCREEN, page.getByRole('region', { name: 'Summary' }).locator('dd').first(), 'the stat boxes', 15_000);
  await step(page, SCREEN, "no 'Loading sales...' once the data is there", () =>
    page.getByText('Loading sales...').first().waitFor({ state: 'hidden' }),
  );
  return page;
}

/** A detail table's section, by its heading. */
const tableSection = (p: Page, heading: string) => p.getByRole('region', { name: heading, exact: true });

/** Clicks the section's 'Download CSV' and answers the saved file: its name and its bytes. */
async function download(p: Page, section: Locator, what: string): Promise<{ name: string; bytes: Buffer }> {
  return step(p, SCREEN, `'Download CSV' of ${what} to save a file`, async () => {
    const button = section.getByRole('button', { name: 'Download CSV', exact: true });
    const [file] = await Promise.all([p.waitForEvent('download', { timeout: 15_000 }), button.click()]);
    return { name: file.suggestedFilename(), bytes: fs.readFileSync(await file.path()) };
  });
}

/** The file as a spreadsheet reads it: a UTF-8 byte order mark, then the records. */
function records(bytes: Buffer): string[][] {
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const result = Papa.parse<string[]>(bytes.subarray(3).toString('utf8'), { skipEmptyLines: true });
  expect(result.errors).toEqual([]);
  return result.data;
}

/** The text of every cell of a table on screen, row by row. */
const shownRows = (table: Locator) =>
  table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));

/** Last 30 days in the browser's zone: the first and the last day. */
function last30Days(): { first: DateTime; last: DateTime } {
  const today = DateTime.now().setZone(ZONE).startOf('day');
  return { first: today.minus({ days: 30 }), last: today };
}

/** 'Nov 5, 2026', as the Date column shows a day, for an ISO day. */
const shownDate = (isoDay: string) => DateTime.fromISO(isoDay).setLocale('en-US').toFormat('LLL d, yyyy');

describe("the detail tables' CSV export", () => {
  it("says which zone the days are counted in, beside the Date range selector: the browser's", async () => {
    for (const zone of [ZONE, 'Europe/Berlin']) {
      const p = await openDashboard(zone);
      await expectVisible(p, SCREEN, p.getByText(`Days in ${zone}`, { exact: true }), `'Days in ${zone}' in a browser in ${zone}`);
      await step(p, SCREEN, `the Date range selector described by 'Days in ${zone}'`, async () => {
        const describedBy = await p.getByLabel('Date range').getAttribute('aria-describedby');
        expect(await p.locator(`[id="${describedBy}"]`).textContent()).toBe(`Days in ${zone}`);
      });
      await p.context().close();
    }
  });

  it('saves every Sales Details row of the range, with the headings, ISO days of the zone, plain amounts and guarded text', async () => {
    const p = await openDashboard();
    await expectAccessible(p, SCREEN);
    const { first, last } = last30Days();
    const section = tableSection(p, 'Sales Details');
    const file = await download(p, section, 'Sales Details');
    expect(file.name).toBe(`sales-details-${first.toISODate()}-${last.toISODate()}.csv`);
    const [headings, ...rows] = records(file.bytes);
    expect(headings).toEqual(['Date', 'Policy Number', 'Traveler', 'Amount', 'Referral Fees']);

    const shown = await shownRows(section.getByRole('table'));
    await step(p, SCREEN, 'every row of the range in the file, the 20 shown first and in their order', () => {
      expect(shown).toHaveLength(20);
      expect(rows.length).toBeGreaterThan(20);
      expect(rows.slice(0, 20).map(([day, policy, traveler]) => [shownDate(day!), policy, traveler?.replace(/^'/, '')])).toEqual(
        shown.map(([date, policy, traveler]) => [date, policy, traveler]),
      );
      for (const [day, , , amount, fee] of rows) {
        expect(day! >= first.toISODate()! && day! <= last.toISODate()!, day).toBe(true);
        expect(amount).toMatch(/^-?\d+\.\d{2}$/);
        expect(fee).toMatch(/^-?\d+\.\d{2}$/);
      }
      return Promise.resolve();
    });
    await step(p, SCREEN, "the sale with a formula-like traveller: its local day, its values, the traveller prefixed with '", () => {
      expect(rows).toContainEqual([
        formulaSaleAt.setZone(ZONE).toISODate(),
        FORMULA_SALE.policy,
        `'${FORMULA_SALE.first} ${FORMULA_SALE.last}`,
        '42.50',
        '4.25',
      ]);
      return Promise.resolve();
    });
  });

  it('saves the Platform Sales and Connection Fee Details tables with their headings and rows', async () => {
    const p = await openDashboard();
    const { first, last } = last30Days();
    const range = `${first.toISODate()}-${last.toISODate()}`;
    for (const [heading, fileName, columns] of [
      ['Platform Sales', `platform-sales-${range}.csv`, ['Affiliate', 'Sales', 'Total Premium']],
      ['Connection Fee Details', `connection-fee-details-${range}.csv`, ['Connected Affiliate', 'Sales', 'Connection Fees']],
    ] as const) {
      const section = tableSection(p, heading);
      const file = await download(p, section, heading);
      expect(file.name).toBe(fileName);
      const [headings, ...rows] = records(file.bytes);
      expect(headings).toEqual(columns);
      const shown = await shownRows(section.getByRole('table'));
      await step(p, SCREEN, `the rows of ${heading} as the table shows them, amounts without the currency`, () => {
        expect(rows.length).toBeGreaterThan(0);
        expect(
          rows.map(([name, count, amount]) => [name, count, `$${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2 })}`]),
        ).toEqual(shown);
        return Promise.resolve();
      });
    }
  });

  it("saves the selected day's rows alone, named after the day (a bar clicked on the chart)", async () => {
    const p = await openDashboard();
    const bars = p.getByRole('button', { name: / Referral Fees / });
    await expectVisible(p, SCREEN, bars.first(), 'the Fees Chart bars', 15_000);
    const labels = await bars.evaluateAll((elements) =>
      elements
        .map((element) => ({ label: element.getAttribute('aria-label') ?? '', height: element.getBoundingClientRect().height }))
        .sort((a, b) => b.height - a.height),
    );
    const barLabel = labels[0]!.label;
    const { first, last } = last30Days();
    let day = first;
    while (day.toFormat('M/d') !== barLabel.split(' ')[0] && day < last) day = day.plus({ days: 1 }).startOf('day');
    const heading = `Sales Details for ${day.setLocale('en-US').toFormat('LLL d, yyyy')}`;

    await p.getByRole('button', { name: barLabel, exact: true }).click();
    await expectVisible(
      p,
      SCREEN,
      p.getByRole('heading', { level: 2, name: heading, exact: true }),
      `'${heading}' after clicking the bar '${barLabel}'`,
    );
    const section = tableSection(p, heading);
    const file = await download(p, section, heading);
    expect(file.name).toBe(`sales-details-${day.toISODate()}.csv`);
    const [headings, ...rows] = records(file.bytes);
    expect(headings).toEqual(['Date', 'Policy Number', 'Traveler', 'Amount', 'Referral Fees']);
    const shown = await shownRows(section.getByRole('table'));
    await step(p, SCREEN, "the day's rows, every one of them, all of that day", () => {
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map(([date, policy]) => [shownDate(date!), policy])).toEqual(shown.map(([date, policy]) => [date, policy]));
      for (const [date] of rows) expect(date).toBe(day.toISODate());
      return Promise.resolve();
    });

    const platform = await download(
      p,
      tableSection(p, `Platform Sales for ${day.setLocale('en-US').toFormat('LLL d, yyyy')}`),
      'Platform Sales of the day',
    );
    expect(platform.name).toBe(`platform-sales-${day.toISODate()}.csv`);
    expect(records(platform.bytes)[0]).toEqual(['Affiliate', 'Sales', 'Total Premium']);
  });
});
