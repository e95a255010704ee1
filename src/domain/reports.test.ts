import { Settings } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { AffiliateReport } from '../api/schemas.ts';
import { latestReports, MAX_REPORT_PERIODS, periodLabel, reportAffiliates, reportsOf } from './reports.ts';

let nextId = 1;
function report(affiliate_id: string, start_date: string, overrides: Partial<AffiliateReport> = {}): AffiliateReport {
  const start = new Date(`${start_date}T00:00:00Z`);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0));
  return {
    id: nextId++,
    report_date: '2026-12-15',
    start_date,
    end_date: end.toISOString().slice(0, 10),
    affiliate_id,
    sales: 1,
    premium_collected: '100.00',
    commission: '10.00',
    connection_fees: '0.00',
    ...overrides,
  };
}

/** The first day of each of the `count` months before December 2026, newest first. */
const monthsBack = (count: number) =>
  Array.from({ length: count }, (_, index) => new Date(Date.UTC(2026, 10 - index, 1)).toISOString().slice(0, 10));

describe('latestReports', () => {
  it('"for each (affiliate_id, start_date) keep the report with the highest id"', () => {
    const first = report('P1', '2026-11-01', { id: 20, sales: 1 });
    const recomputed = report('P1', '2026-11-01', { id: 31, sales: 2 });
    const older = report('P1', '2026-11-01', { id: 7, sales: 3 });
    const otherAffiliate = report('T2', '2026-11-01', { id: 5 });

    const kept = latestReports([first, recomputed, older, otherAffiliate]);

    expect(kept).toHaveLength(2);
    expect(kept).toContain(recomputed);
    expect(kept).toContain(otherAffiliate);
    expect(kept).not.toContain(first);
    expect(kept).not.toContain(older);
  });

  it('"sort by start_date, newest first", whatever order the reports come in', () => {
    const october = report('P1', '2026-10-01');
    const november = report('P1', '2026-11-01');
    const september = report('P1', '2026-09-01');
    const lastYear = report('P1', '2025-12-01');

    expect(latestReports([october, lastYear, november, september]).map((r) => r.start_date)).toEqual([
      '2026-11-01',
      '2026-10-01',
      '2026-09-01',
      '2025-12-01',
    ]);
  });

  it('"keep 12": the 12 newest periods of each affiliate', () => {
    const p1 = monthsBack(15).map((start) => report('P1', start));
    const t2 = monthsBack(13).map((start) => report('T2', start));

    const kept = latestReports([...t2, ...p1].reverse());

    expect(MAX_REPORT_PERIODS).toBe(12);
    expect(kept.filter((r) => r.affiliate_id === 'P1').map((r) => r.start_date)).toEqual(monthsBack(12));
    expect(kept.filter((r) => r.affiliate_id === 'T2').map((r) => r.start_date)).toEqual(monthsBack(12));
  });

  it('counts periods, not reports: duplicates of a period do not push an older period out', () => {
    const months = monthsBack(12);
    const reports = months.flatMap((start) => [report('P1', start), report('P1', start)]);

    expect(latestReports(reports).map((r) => r.start_date)).toEqual(months);
  });

  it('answers nothing for no reports', () => {
    expect(latestReports([])).toEqual([]);
  });
});

describe('reportsOf', () => {
  it("gives one affiliate's latest reports", () => {
    const p1 = report('P1', '2026-11-01');
    const c1 = report('C1', '2026-11-01');
    const t2 = report('T2', '2026-10-01');

    expect(reportsOf([p1, c1, t2], 'P1')).toEqual([p1]);
    expect(reportsOf([p1, c1, t2], 'T2')).toEqual([t2]);
    expect(reportsOf([p1, c1, t2], 'X9')).toEqual([]);
  });

  it('without an affiliate, gives every latest report, still "at most the 12 most recent periods"', () => {
    const p1 = monthsBack(10).map((start) => report('P1', start));
    const c1 = monthsBack(10).map((start) => report('C1', start));

    const rows = reportsOf([...p1, ...c1], null);

    expect(rows).toHaveLength(12);
    expect(rows.map((r) => r.start_date)).toEqual(monthsBack(6).flatMap((start) => [start, start]));
  });
});

describe('reportAffiliates', () => {
  const affiliates = [
    { id: 'C1', name: 'Child One', parent_id: 'P1' },
    { id: 'P1', name: 'Parent Travel', parent_id: null },
    { id: 'Q3', name: 'Quiet Three', parent_id: null },
    { id: 'T2', name: 'Top Two', parent_id: null },
    { id: 'A0', name: 'Alpha', parent_id: null },
  ];

  it('"lists top-level affiliates (parent null) that have reports, sorted by name"', () => {
    const reports = [report('T2', '2026-11-01'), report('C1', '2026-11-01'), report('P1', '2026-11-01'), report('P1', '2026-10-01')];

    expect(reportAffiliates(affiliates, reports).map((a) => a.id)).toEqual(['P1', 'T2']);
  });

  it('leaves out affiliates with a parent even when they have reports, and those without reports', () => {
    expect(reportAffiliates(affiliates, [report('C1', '2026-11-01')])).toEqual([]);
    expect(reportAffiliates(affiliates, [])).toEqual([]);
  });

  it('sorts by name, not by id or by the order given', () => {
    const reports = ['T2', 'A0', 'Q3'].map((id) => report(id, '2026-11-01'));
    expect(reportAffiliates([...affiliates].reverse(), reports).map((a) => a.name)).toEqual(['Alpha', 'Quiet Three', 'Top Two']);
  });
});

describe('periodLabel', () => {
  it("reads a whole calendar month as the month and year: 'November 2026'", () => {
    expect(periodLabel({ start_date: '2026-11-01', end_date: '2026-11-30' })).toBe('November 2026');
    expect(periodLabel({ start_date: '2024-02-01', end_date: '2024-02-29' })).toBe('February 2024');
    expect(periodLabel({ start_date: '2026-12-01', end_date: '2026-12-31' })).toBe('December 2026');
  });

  it("reads any other period as its days: 'Nov 1 – Nov 15, 2026'", () => {
    expect(periodLabel({ start_date: '2026-11-01', end_date: '2026-11-15' })).toBe('Nov 1 – Nov 15, 2026');
    expect(periodLabel({ start_date: '2026-11-02', end_date: '2026-11-30' })).toBe('Nov 2 – Nov 30, 2026');
    expect(periodLabel({ start_date: '2025-02-01', end_date: '2025-02-28' })).toBe('February 2025');
    expect(periodLabel({ start_date: '2024-02-01', end_date: '2024-02-28' })).toBe('Feb 1 – Feb 28, 2024');
    expect(periodLabel({ start_date: '2026-10-01', end_date: '2026-11-30' })).toBe('Oct 1 – Nov 30, 2026');
  });

  it('names both years when the period crosses one, and a single day once', () => {
    expect(periodLabel({ start_date: '2026-12-15', end_date: '2027-01-14' })).toBe('Dec 15, 2026 – Jan 14, 2027');
    expect(periodLabel({ start_date: '2026-11-05', end_date: '2026-11-05' })).toBe('Nov 5, 2026');
  });

  it('does not depend on the time zone: a day is a calendar day', () => {
    // Midnight UTC of 2026-11-01 is still October 31 west of Greenwich; the label must not be.
    const zone = Settings.defaultZone;
    Settings.defaultZone = 'America/Los_Angeles';
    try {
      expect(periodLabel({ start_date: '2026-11-01', end_date: '2026-11-30' })).toBe('November 2026');
    } finally {
      Settings.defaultZone = zone;
    }
  });

  it("reads in the browser's language, as amounts do", () => {
    expect(periodLabel({ start_date: '2026-11-01', end_date: '2026-11-30' }, 'de-DE')).toBe('November 2026');
    expect(periodLabel({ start_date: '2026-11-01', end_date: '2026-11-15' }, 'de-DE')).toBe('1. Nov. – 15. Nov. 2026');
    expect(periodLabel({ start_date: '2026-12-15', end_date: '2027-01-14' }, 'de-DE')).toBe('15. Dez. 2026 – 14. Jan. 2027');
    expect(periodLabel({ start_date: '2026-10-01', end_date: '2026-10-31' }, 'fr-FR')).toBe('octobre 2026');
  });

  it('refuses a date that is not a day', () => {
    expect(() => periodLabel({ start_date: 'soon', end_date: '2026-11-30' })).toThrow(RangeError);
  });
});
