// A report and the dashboard agree, as a user compares them: each of globetrotter's last three
// months on the Reports screen shows the Sales, Premium Collected, Referral Fees and Connection
// Fees that its dashboard (/affiliate/AFF-100 with that month as a custom range) shows as Number
// of Direct Sales, Total Direct Sales, Referral Fees and Connection Fees. The browser counts its
// days in the test machine's zone, the zone the portal's demo data was seeded in.
import { DateTime } from 'luxon';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setUpPortal } from './harness.ts';
import { expectVisible, signedInPage } from './session.ts';

const e2e = setUpPortal();

/** The Reports table's body rows: period, then the four figures. */
function reportRows(p: Page): Promise<string[][]> {
  return p
    .getByRole('table', { name: 'Reports' })
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].slice(0, 5).map((cell) => cell.textContent ?? '')));
}

/** The dashboard's stat boxes, by their labels. */
async function statBoxes(p: Page): Promise<Map<string, string>> {
  const summary = p.getByRole('region', { name: 'Summary' });
  await expectVisible(p, 'dashboard', summary.locator('dd').first(), 'the stat boxes', 15_000);
  await p.getByText('Loading sales...').first().waitFor({ state: 'hidden' });
  const boxes = await summary
    .locator('dl > div')
    .evaluateAll((divs) => divs.map((div) => [div.querySelector('dt')?.textContent ?? '', div.querySelector('dd')?.textContent ?? '']));
  return new Map(boxes as [string, string][]);
}

describe('the monthly reports', () => {
  it("show the dashboard's figures for their month", async () => {
    const p = e2e.track(await signedInPage(e2e.browser, e2e.portal, 'globetrotter', { path: '/reports' }));
    await expectVisible(p, 'Reports', p.getByRole('table', { name: 'Reports' }), 'the table of reports', 15_000);
    const rows = (await reportRows(p)).slice(0, 3);
    expect(rows).toHaveLength(3);

    for (const [period, sales, premium, commission, fees] of rows) {
      const month = DateTime.fromFormat(period!, 'LLLL yyyy', { locale: 'en-US' });
      const start = month.startOf('month').toISODate();
      const end = month.endOf('month').toISODate();
      await p.goto(`${e2e.portal.url}/affiliate/AFF-100?range=custom&start=${start}&end=${end}`);
      const boxes = await statBoxes(p);
      expect(
        {
          sales: boxes.get('Number of Direct Sales'),
          premium: boxes.get('Total Direct Sales'),
          commission: boxes.get('Referral Fees'),
          fees: boxes.get('Connection Fees'),
        },
        `the dashboard for ${period}`,
      ).toEqual({ sales, premium, commission, fees });
    }
  });
});
