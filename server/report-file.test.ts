// @vitest-environment node
import ExcelJS from 'exceljs';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './db.ts';
import { buildReportWorkbook, type ReportRow } from './report-file.ts';
import { ensureDemoData } from './seed.ts';

// The workbook lists the period in the zone the demo data counts its days in: not the test
// machine's here, and with a DST change in the months reported.
const ZONE = 'America/New_York';
const TODAY = DateTime.fromObject({ year: 2026, month: 11, day: 22, hour: 14, minute: 30 }, { zone: ZONE });

function seeded(): Db {
  const db = openDatabase(':memory:');
  ensureDemoData(db, { today: TODAY });
  return db;
}

/** The report a user downloads: the latest issue for the affiliate and start date. */
function latestReport(db: Db, affiliateId: string, startDate: string): ReportRow {
  return db
    .prepare('SELECT * FROM reports WHERE affiliate_id = ? AND start_date = ? ORDER BY id DESC LIMIT 1')
    .get(affiliateId, startDate) as ReportRow;
}

async function loadWorkbook(db: Db, report: ReportRow): Promise<ExcelJS.Workbook> {
  const file = await buildReportWorkbook(db, report);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ExcelJS.Buffer);
  return workbook;
}

function sheet(workbook: ExcelJS.Workbook, name: string): ExcelJS.Worksheet {
  const found = workbook.getWorksheet(name);
  if (!found) throw new Error(`No sheet ${name}`);
  return found;
}

/** Data rows (below the header) as arrays of cell values, column A first. */
function dataRows(worksheet: ExcelJS.Worksheet): ExcelJS.CellValue[][] {
  const rows: ExcelJS.CellValue[][] = [];
  worksheet.eachRow((row, number) => {
    if (number > 1) rows.push((row.values as ExcelJS.CellValue[]).slice(1));
  });
  return rows;
}

function summary(workbook: ExcelJS.Workbook): Map<string, { value: ExcelJS.CellValue; numFmt: string | undefined }> {
  const entries = new Map<string, { value: ExcelJS.CellValue; numFmt: string | undefined }>();
  sheet(workbook, 'Summary').eachRow((row) => {
    entries.set(row.getCell(1).text, { value: row.getCell(2).value, numFmt: row.getCell(2).numFmt });
  });
  return entries;
}

/** The affiliate's events in the period, selected independently of report-file.ts. */
function eventsOfPeriod(db: Db, affiliateIds: string[], table: 'payment_events' | 'connection_fees', report: ReportRow) {
  const from = DateTime.fromISO(report.start_date, { zone: ZONE }).toJSDate().toISOString();
  const to = DateTime.fromISO(report.end_date, { zone: ZONE }).plus({ days: 1 }).toJSDate().toISOString();
  return db
    .prepare(
      `SELECT * FROM ${table} WHERE affiliate_id IN (${affiliateIds.map(() => '?').join(',')}) AND created >= ? AND created < ? ORDER BY created, id`,
    )
    .all(...affiliateIds, from, to) as { id: number; created: string; amount: string; commission_pc?: string | null; policies?: string }[];
}

const sumOf = (values: ExcelJS.CellValue[]) => values.reduce<number>((total, value) => total + Number(value), 0);

describe('buildReportWorkbook', () => {
  const db = seeded();
  const report = latestReport(db, 'AFF-100', '2026-10-01');

  it('has a Summary, a Sales and a Connection Fees sheet', async () => {
    const workbook = await loadWorkbook(db, report);
    expect(workbook.worksheets.map((worksheet) => worksheet.name)).toEqual(['Summary', 'Sales', 'Connection Fees']);
  });

  it('summarises the stored report row, with money cells as formatted numbers', async () => {
    const entries = summary(await loadWorkbook(db, report));
    expect(Object.fromEntries([...entries].map(([label, { value }]) => [label, value]))).toEqual({
      Affiliate: 'Globetrotter Travel',
      'Affiliate ID': 'AFF-100',
      Period: '2026-10-01 – 2026-10-31',
      'Report Date': '2026-11-15',
      Sales: report.sales,
      'Premium Collected': Number(report.premium_collected),
      'Referral Fees': Number(report.commission),
      'Connection Fees': Number(report.connection_fees),
    });
    for (const label of ['Premium Collected', 'Referral Fees', 'Connection Fees']) expect(entries.get(label)?.numFmt).toBe('#,##0.00');
  });

  it('shows a superseded issue with its own figures', async () => {
    const issues = db.prepare('SELECT * FROM reports ORDER BY id').all() as ReportRow[];
    const superseded = issues.find((row) =>
      issues.some((later) => later.id > row.id && later.affiliate_id === row.affiliate_id && later.start_date === row.start_date),
    );
    if (!superseded) throw new Error('The demo data has no superseded report');
    const entries = summary(await loadWorkbook(db, superseded));
    expect(entries.get('Sales')?.value).toBe(superseded.sales);
    expect(entries.get('Premium Collected')?.value).toBe(Number(superseded.premium_collected));
  });

  it("lists one Sales row per direct sale of the period (own, and the children's it earned a fee on), whose totals match the report", async () => {
    const sales = sheet(await loadWorkbook(db, report), 'Sales');
    expect(sales.getRow(1).values).toEqual([
      undefined,
      'Date',
      'Affiliate',
      'Policy Number',
      'Traveler(s)',
      'Product',
      'Amount',
      'Commission %',
      'Referral Fee',
    ]);
    const rows = dataRows(sales);
    expect(rows).toHaveLength(report.sales);
    // The own sales with a referral fee, and every child sale with a connection fee (none of them the own).
    const own = eventsOfPeriod(db, ['AFF-100'], 'payment_events', report);
    const direct = own.filter((event) => Number(event.commission_pc ?? 0) !== 0 && Number(event.amount ?? 0) !== 0);
    const connected = eventsOfPeriod(db, ['AFF-110', 'AFF-120'], 'connection_fees', report);
    expect(rows).toHaveLength(direct.length + connected.length);
    expect(rows.filter((row) => row[1] === 'Globetrotter Travel (AFF-100)')).toHaveLength(direct.length);
    expect(sumOf(rows.map((row) => row[5]))).toBeCloseTo(Number(report.premium_collected), 2);
    expect(sumOf(rows.map((row) => row[7]))).toBeCloseTo(Number(report.commission), 2);
  });

  it("writes sale dates as the wall-clock time of the event in the demo data's zone", async () => {
    const [first] = dataRows(sheet(await loadWorkbook(db, report), 'Sales'));
    const earliest = [
      ...eventsOfPeriod(db, ['AFF-100'], 'payment_events', report),
      ...eventsOfPeriod(db, ['AFF-110', 'AFF-120'], 'connection_fees', report),
    ].sort((a, b) => (a.created < b.created ? -1 : 1))[0];
    const local = DateTime.fromISO(earliest!.created, { zone: ZONE });
    expect(first?.[0]).toEqual(new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second)));
  });

  it("lists the connection fees earned on the children's sales, whose total matches the report", async () => {
    const fees = sheet(await loadWorkbook(db, report), 'Connection Fees');
    expect(fees.getRow(1).values).toEqual([undefined, 'Date', 'Connected Affiliate', 'Sale Amount', 'Connection Fee']);
    const rows = dataRows(fees);
    expect(rows).toHaveLength(eventsOfPeriod(db, ['AFF-110', 'AFF-120'], 'connection_fees', report).length);
    expect(new Set(rows.map((row) => row[1]))).toEqual(new Set(['Globetrotter Berlin (AFF-110)', 'Globetrotter Lisbon (AFF-120)']));
    expect(sumOf(rows.map((row) => row[3]))).toBeCloseTo(Number(report.connection_fees), 2);
  });

  it('has bold, frozen header rows on the listing sheets', async () => {
    const workbook = await loadWorkbook(db, report);
    for (const name of ['Sales', 'Connection Fees']) {
      const worksheet = sheet(workbook, name);
      expect(worksheet.getRow(1).getCell(1).font?.bold).toBe(true);
      expect(worksheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(worksheet.getColumn(1).width).toBeGreaterThan(10);
    }
  });

  it("gives a platform-only affiliate zero referral fees and its child's connection fees", async () => {
    const nomad = latestReport(db, 'AFF-300', '2026-10-01');
    const workbook = await loadWorkbook(db, nomad);
    expect(sumOf(dataRows(sheet(workbook, 'Sales')).map((row) => row[7]))).toBe(0);
    const fees = dataRows(sheet(workbook, 'Connection Fees'));
    expect(new Set(fees.map((row) => row[1]))).toEqual(new Set(['Nomad Students (AFF-310)']));
    expect(sumOf(fees.map((row) => row[3]))).toBeCloseTo(Number(nomad.connection_fees), 2);
  });
});
