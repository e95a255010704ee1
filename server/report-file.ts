// Monthly affiliate reports: the figures of a period (sales, premium collected, commission,
// connection fees) and the .xlsx file of a stored report (GET reports/affiliate/{id}/download/).
// The seed computes the stored figures with the same period queries the workbook lists, so a
// report's Summary sheet and its detail sheets agree.
import BigNumber from 'bignumber.js';
import ExcelJS from 'exceljs';
import { DateTime, type Zone } from 'luxon';
import type { Db } from './db.ts';

export interface ReportRow {
  id: number;
  report_date: string;
  start_date: string;
  end_date: string;
  affiliate_id: string;
  sales: number;
  premium_collected: string;
  commission: string;
  connection_fees: string;
}

export interface ReportFigures {
  sales: number;
  premium_collected: string;
  commission: string;
  connection_fees: string;
}

interface Traveler {
  first_name?: string | null;
  last_name?: string | null;
}
interface Policy {
  policy_number?: string | null;
  travelers?: Traveler[] | null;
}

export interface PeriodSale {
  id: number;
  created: string;
  amount: string | null;
  commission_pc: string | null;
  product: string;
  policies: string;
}

export interface PeriodConnectionFee {
  id: number;
  created: string;
  amount: string | null;
  affiliate_id: string;
  affiliate_name: string;
  connection_fee_pc: string | null;
  connection_fee_amount: string | null;
}

// --- Money rules (see docs/product-rules.md, Dashboard figures) ----------------------------

/** Referral fee (commission) of a sale: amount * commission percent / 100; missing values are 0. */
export function saleCommission(amount: string | null, commissionPc: string | null): BigNumber {
  return new BigNumber(amount ?? 0).times(commissionPc ?? 0).div(100);
}

/** A connection fee: connection_fee_amount, else amount * connection_fee_pc / 100, else 0. */
export function connectionFee(row: Pick<PeriodConnectionFee, 'amount' | 'connection_fee_pc' | 'connection_fee_amount'>): BigNumber {
  if (row.connection_fee_amount !== null) return new BigNumber(row.connection_fee_amount);
  if (row.connection_fee_pc !== null) return new BigNumber(row.amount ?? 0).times(row.connection_fee_pc).div(100);
  return new BigNumber(0);
}

/** A money total as the API sends it: 2 decimals, half to even at exact halves. */
export function moneyString(value: BigNumber): string {
  return value.toFixed(2, BigNumber.ROUND_HALF_EVEN);
}

// --- Period queries -----------------------------------------------------------------------

/** A report period (inclusive local calendar days) as the UTC ISO range [from, to) of `created`. */
export function periodBounds(startDate: string, endDate: string, zone?: Zone): { from: string; to: string } {
  const start = DateTime.fromISO(startDate, { zone }).startOf('day');
  const end = DateTime.fromISO(endDate, { zone }).startOf('day').plus({ days: 1 });
  return { from: start.toJSDate().toISOString(), to: end.toJSDate().toISOString() };
}

/** The affiliate's own sales in the period (its children's sales are not included), oldest first. */
export function periodSales(db: Db, affiliateId: string, startDate: string, endDate: string, zone?: Zone): PeriodSale[] {
  const { from, to } = periodBounds(startDate, endDate, zone);
  return db
    .prepare(
      `SELECT id, created, amount, commission_pc, product, policies FROM payment_events
       WHERE affiliate_id = ? AND created >= ? AND created < ? ORDER BY created, id`,
    )
    .all(affiliateId, from, to) as PeriodSale[];
}

/** Connection fees the affiliate earned in the period: fee rows whose connected affiliate's parent it is. */
export function periodConnectionFees(db: Db, affiliateId: string, startDate: string, endDate: string, zone?: Zone): PeriodConnectionFee[] {
  const { from, to } = periodBounds(startDate, endDate, zone);
  return db
    .prepare(
      `SELECT f.id, f.created, f.amount, f.affiliate_id, a.name AS affiliate_name,
              f.connection_fee_pc, f.connection_fee_amount
       FROM connection_fees f JOIN affiliates a ON a.affiliate_id = f.affiliate_id
       WHERE a.parent_id = ? AND f.created >= ? AND f.created < ? ORDER BY f.created, f.id`,
    )
    .all(affiliateId, from, to) as PeriodConnectionFee[];
}

/** A report's figures: own sales counted and summed, their commission, and the connection fees earned. */
export function reportFigures(db: Db, affiliateId: string, startDate: string, endDate: string, zone?: Zone): ReportFigures {
  const sales = periodSales(db, affiliateId, startDate, endDate, zone);
  const fees = periodConnectionFees(db, affiliateId, startDate, endDate, zone);
  const sum = (values: BigNumber[]) => values.reduce((total, value) => total.plus(value), new BigNumber(0));
  return {
    sales: sales.length,
    premium_collected: moneyString(sum(sales.map((sale) => new BigNumber(sale.amount ?? 0)))),
    commission: moneyString(sum(sales.map((sale) => saleCommission(sale.amount, sale.commission_pc)))),
    connection_fees: moneyString(sum(fees.map(connectionFee))),
  };
}

// --- The workbook -------------------------------------------------------------------------

const MONEY_FORMAT = '#,##0.00';
const PERCENT_FORMAT = '0.00';
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm';

/** Builds the .xlsx of report `reportId`: Summary, Sales and Connection Fees sheets; null when unknown. */
export async function buildReportWorkbook(db: Db, reportId: number): Promise<Buffer | null> {
  const report = db.prepare('SELECT * FROM reports WHERE id = ?').get(reportId) as ReportRow | undefined;
  if (!report) return null;
  const affiliate = db.prepare('SELECT name FROM affiliates WHERE affiliate_id = ?').get(report.affiliate_id) as
    { name: string } | undefined;

  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Affiliate Portal';
  addSummarySheet(workbook, report, affiliate?.name ?? report.affiliate_id);
  addSalesSheet(workbook, periodSales(db, report.affiliate_id, report.start_date, report.end_date));
  addConnectionFeesSheet(workbook, periodConnectionFees(db, report.affiliate_id, report.start_date, report.end_date));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Summary: one labelled row per figure of the stored report. */
function addSummarySheet(workbook: ExcelJS.Workbook, report: ReportRow, affiliateName: string): void {
  const sheet = workbook.addWorksheet('Summary');
  sheet.columns = [{ width: 22 }, { width: 36 }];
  const rows: [string, string | number, string?][] = [
    ['Affiliate', affiliateName],
    ['Affiliate ID', report.affiliate_id],
    ['Period', `${report.start_date} – ${report.end_date}`],
    ['Report Date', report.report_date],
    ['Sales', report.sales],
    ['Premium Collected', Number(report.premium_collected), MONEY_FORMAT],
    ['Referral Fees', Number(report.commission), MONEY_FORMAT],
    ['Connection Fees', Number(report.connection_fees), MONEY_FORMAT],
  ];
  for (const [label, value, numFmt] of rows) {
    const row = sheet.addRow([label, value]);
    row.getCell(1).font = { bold: true };
    row.getCell(2).alignment = { horizontal: 'left' };
    if (numFmt) row.getCell(2).numFmt = numFmt;
  }
}

/** Sales: one row per payment event of the affiliate in the period. */
function addSalesSheet(workbook: ExcelJS.Workbook, sales: PeriodSale[]): void {
  const sheet = addListSheet(workbook, 'Sales', [
    { header: 'Date', width: 18, numFmt: DATE_TIME_FORMAT },
    { header: 'Policy Number', width: 16 },
    { header: 'Traveler(s)', width: 40 },
    { header: 'Product', width: 20 },
    { header: 'Amount', width: 14, numFmt: MONEY_FORMAT },
    { header: 'Commission %', width: 14, numFmt: PERCENT_FORMAT },
    { header: 'Referral Fee', width: 14, numFmt: MONEY_FORMAT },
  ]);
  for (const sale of sales) {
    const policy = firstPolicy(sale.policies);
    sheet.addRow([
      excelDateTime(sale.created),
      policy?.policy_number ?? '',
      travelerNames(policy),
      sale.product,
      Number(sale.amount ?? 0),
      Number(sale.commission_pc ?? 0),
      saleCommission(sale.amount, sale.commission_pc).decimalPlaces(6).toNumber(),
    ]);
  }
}

/** Connection Fees: one row per fee earned on a connected (child) affiliate's sale. */
function addConnectionFeesSheet(workbook: ExcelJS.Workbook, fees: PeriodConnectionFee[]): void {
  const sheet = addListSheet(workbook, 'Connection Fees', [
    { header: 'Date', width: 18, numFmt: DATE_TIME_FORMAT },
    { header: 'Connected Affiliate', width: 30 },
    { header: 'Sale Amount', width: 14, numFmt: MONEY_FORMAT },
    { header: 'Connection Fee', width: 16, numFmt: MONEY_FORMAT },
  ]);
  for (const fee of fees) {
    sheet.addRow([
      excelDateTime(fee.created),
      `${fee.affiliate_name} (${fee.affiliate_id})`,
      Number(fee.amount ?? 0),
      connectionFee(fee).decimalPlaces(6).toNumber(),
    ]);
  }
}

interface ListColumn {
  header: string;
  width: number;
  numFmt?: string;
}

/** A listing sheet: bold, frozen header row and the columns' widths and number formats. */
function addListSheet(workbook: ExcelJS.Workbook, name: string, columns: ListColumn[]): ExcelJS.Worksheet {
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map(({ header, width, numFmt }) => ({ header, width, style: numFmt ? { numFmt } : {} }));
  sheet.getRow(1).font = { bold: true };
  return sheet;
}

/** Only the first policy of an event counts. */
function firstPolicy(policiesJson: string): Policy | undefined {
  const policies = JSON.parse(policiesJson) as Policy[];
  return policies[0];
}

function travelerNames(policy: Policy | undefined): string {
  return (policy?.travelers ?? []).map((traveler) => [traveler.first_name, traveler.last_name].filter(Boolean).join(' ')).join(', ');
}

/**
 * Excel date-times carry no zone: write the server's local wall-clock time of `created` so the
 * sheet shows the same day and time as the dashboard (exceljs stores a Date's UTC fields).
 */
function excelDateTime(createdIso: string): Date {
  const local = DateTime.fromISO(createdIso).toLocal();
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
}
