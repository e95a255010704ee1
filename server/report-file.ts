// Monthly affiliate reports: the figures of a period (sales, premium collected, commission,
// connection fees) and the .xlsx file of a stored report (GET reports/affiliate/{id}/download/).
// A report's figures are those the dashboard shows for the affiliate and the period
// (docs/product-rules.md, Dashboard figures and Reports): its direct sales (own sales with a
// referral fee, and its connected affiliates' sales it earned a connection fee on, each sale
// once), their premium, the referral fees and the connection fees. The workbook lists the same
// sales and fees, so its Summary and its listing sheets agree.
// A report's month is a calendar month in the zone the demo data lays out its days in (kept in
// the database when it is seeded; the server's own zone otherwise).
import BigNumber from 'bignumber.js';
import ExcelJS from 'exceljs';
import { DateTime } from 'luxon';
import { getMeta, type Db } from './db.ts';

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

/** A direct sale of the period: an own sale with a referral fee, or a connected affiliate's sale with a connection fee. */
export interface PeriodSale {
  id: number;
  created: string;
  affiliate_id: string;
  affiliate_name: string;
  amount: string | null;
  /** The sale's commission percent; null for a connected affiliate's sale (its referral fee is not the report's). */
  commission_pc: string | null;
  product: string | null;
  policies: string | null;
}

export interface PeriodConnectionFee {
  id: number;
  created: string;
  amount: string | null;
  affiliate_id: string;
  affiliate_name: string;
  connection_fee_pc: string | null;
  connection_fee_amount: string | null;
  /** The underlying sale's product and policies; null when payment_events does not hold it. */
  product: string | null;
  policies: string | null;
}

// --- Money rules (see docs/product-rules.md, Dashboard figures) ----------------------------

/** Amounts and fees are carried at 6 decimals, half to even. */
const at6 = (value: BigNumber) => value.decimalPlaces(6, BigNumber.ROUND_HALF_EVEN);

/** A sale's amount at 6 decimals; a missing amount is 0. */
export function saleAmount(amount: string | null): BigNumber {
  return at6(new BigNumber(amount ?? 0));
}

/** Referral fee (commission) of a sale: amount * commission percent / 100 at 6 decimals; missing values are 0. */
export function saleCommission(amount: string | null, commissionPc: string | null): BigNumber {
  return at6(new BigNumber(amount ?? 0).times(commissionPc ?? 0).div(100));
}

/** A connection fee: connection_fee_amount, else amount * connection_fee_pc / 100, else 0 (6 decimals). */
export function connectionFee(row: Pick<PeriodConnectionFee, 'amount' | 'connection_fee_pc' | 'connection_fee_amount'>): BigNumber {
  if (row.connection_fee_amount !== null) return at6(new BigNumber(row.connection_fee_amount));
  if (row.connection_fee_pc !== null) return saleCommission(row.amount, row.connection_fee_pc);
  return new BigNumber(0);
}

/** A money total as the API sends it: 2 decimals, half to even at exact halves. */
export function moneyString(value: BigNumber): string {
  return value.toFixed(2, BigNumber.ROUND_HALF_EVEN);
}

// --- Period queries -----------------------------------------------------------------------

/** The database key of the zone reports count their months in. */
export const REPORT_ZONE_KEY = 'time_zone';

/** The zone a report's month is counted in: the demo data's, else the server's own. */
export function reportZone(db: Db): string {
  return getMeta(db, REPORT_ZONE_KEY) ?? DateTime.local().zoneName;
}

/** A report period (inclusive local calendar days of `zone`) as the UTC ISO range [from, to) of `created`. */
export function periodBounds(startDate: string, endDate: string, zone: string): { from: string; to: string } {
  const start = DateTime.fromISO(startDate, { zone }).startOf('day');
  const end = DateTime.fromISO(endDate, { zone }).startOf('day').plus({ days: 1 });
  return { from: start.toJSDate().toISOString(), to: end.toJSDate().toISOString() };
}

interface Period {
  affiliateId: string;
  startDate: string;
  endDate: string;
}

/**
 * The period's direct sales, oldest first, each once: the affiliate's own sales whose referral
 * fee is not zero, then (by the id a fee shares with its sale) the connected affiliates' sales
 * it earned a connection fee on (`fees`, the period's) that are not among them, with the fee's
 * amount.
 */
export function periodSales(db: Db, period: Period, fees: PeriodConnectionFee[], zone = reportZone(db)): PeriodSale[] {
  const { from, to } = periodBounds(period.startDate, period.endDate, zone);
  const own = (
    db
      .prepare(
        `SELECT e.id, e.created, e.affiliate_id, a.name AS affiliate_name, e.amount, e.commission_pc, e.product, e.policies
         FROM payment_events e JOIN affiliates a ON a.affiliate_id = e.affiliate_id
         WHERE e.affiliate_id = ? AND e.created >= ? AND e.created < ? ORDER BY e.created, e.id`,
      )
      .all(period.affiliateId, from, to) as PeriodSale[]
  ).filter((sale) => !saleCommission(sale.amount, sale.commission_pc).isZero());
  // A sale with a referral fee and a connection fee is one sale: the own row counts. A fee's id is
  // its table's key, so no two fees share a sale.
  const ownIds = new Set(own.map((sale) => sale.id));
  const connected = fees
    .filter((fee) => !ownIds.has(fee.id))
    .map(({ id, created, affiliate_id, affiliate_name, amount, product, policies }): PeriodSale => ({
      id,
      created,
      affiliate_id,
      affiliate_name,
      amount,
      commission_pc: null,
      product,
      policies,
    }));
  return [...own, ...connected].sort((a, b) => (a.created === b.created ? a.id - b.id : a.created < b.created ? -1 : 1));
}

/**
 * Connection fees the affiliate earned in the period: fee rows whose connected affiliate's parent
 * it is, with their sale's product and policies.
 */
export function periodConnectionFees(db: Db, period: Period, zone = reportZone(db)): PeriodConnectionFee[] {
  const { from, to } = periodBounds(period.startDate, period.endDate, zone);
  return db
    .prepare(
      `SELECT f.id, f.created, f.amount, f.affiliate_id, a.name AS affiliate_name,
              f.connection_fee_pc, f.connection_fee_amount, e.product, e.policies
       FROM connection_fees f JOIN affiliates a ON a.affiliate_id = f.affiliate_id
       LEFT JOIN payment_events e ON e.id = f.id
       WHERE a.parent_id = ? AND f.created >= ? AND f.created < ? ORDER BY f.created, f.id`,
    )
    .all(period.affiliateId, from, to) as PeriodConnectionFee[];
}

/**
 * A report's figures, the dashboard's for the affiliate and the period: Number of Direct Sales,
 * Total Direct Sales, Referral Fees and Connection Fees.
 */
export function reportFigures(db: Db, period: Period, zone = reportZone(db)): ReportFigures {
  const fees = periodConnectionFees(db, period, zone);
  const sales = periodSales(db, period, fees, zone);
  const sum = (values: BigNumber[]) => values.reduce((total, value) => total.plus(value), new BigNumber(0));
  return {
    sales: sales.length,
    premium_collected: moneyString(sum(sales.map((sale) => saleAmount(sale.amount)))),
    commission: moneyString(sum(sales.map((sale) => saleCommission(sale.amount, sale.commission_pc)))),
    connection_fees: moneyString(sum(fees.map(connectionFee))),
  };
}

// --- The workbook -------------------------------------------------------------------------

const MONEY_FORMAT = '#,##0.00';
const PERCENT_FORMAT = '0.00';
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm';

/** Builds the .xlsx of a stored report: Summary, Sales and Connection Fees sheets. */
export async function buildReportWorkbook(db: Db, report: ReportRow): Promise<Buffer> {
  const affiliate = db.prepare('SELECT name FROM affiliates WHERE affiliate_id = ?').get(report.affiliate_id) as
    { name: string } | undefined;

  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Affiliate Portal';
  const period = { affiliateId: report.affiliate_id, startDate: report.start_date, endDate: report.end_date };
  const zone = reportZone(db);
  addSummarySheet(workbook, report, affiliate?.name ?? report.affiliate_id);
  const fees = periodConnectionFees(db, period, zone);
  addSalesSheet(workbook, periodSales(db, period, fees, zone), zone);
  addConnectionFeesSheet(workbook, fees, zone);
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

/** Sales: one row per direct sale of the period (the report's Sales), own and connected affiliates' alike. */
function addSalesSheet(workbook: ExcelJS.Workbook, sales: PeriodSale[], zone: string): void {
  const sheet = addListSheet(workbook, 'Sales', [
    { header: 'Date', width: 18, numFmt: DATE_TIME_FORMAT },
    { header: 'Affiliate', width: 30 },
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
      excelDateTime(sale.created, zone),
      `${sale.affiliate_name} (${sale.affiliate_id})`,
      policy?.policy_number ?? '',
      travelerNames(policy),
      sale.product ?? '',
      saleAmount(sale.amount).toNumber(),
      Number(sale.commission_pc ?? 0),
      saleCommission(sale.amount, sale.commission_pc).toNumber(),
    ]);
  }
}

/** Connection Fees: one row per fee earned on a connected (child) affiliate's sale. */
function addConnectionFeesSheet(workbook: ExcelJS.Workbook, fees: PeriodConnectionFee[], zone: string): void {
  const sheet = addListSheet(workbook, 'Connection Fees', [
    { header: 'Date', width: 18, numFmt: DATE_TIME_FORMAT },
    { header: 'Connected Affiliate', width: 30 },
    { header: 'Sale Amount', width: 14, numFmt: MONEY_FORMAT },
    { header: 'Connection Fee', width: 16, numFmt: MONEY_FORMAT },
  ]);
  for (const fee of fees) {
    sheet.addRow([
      excelDateTime(fee.created, zone),
      `${fee.affiliate_name} (${fee.affiliate_id})`,
      saleAmount(fee.amount).toNumber(),
      connectionFee(fee).toNumber(),
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

/** Only the first policy of an event counts; a connected affiliate's sale may have none on record. */
function firstPolicy(policiesJson: string | null): Policy | undefined {
  if (policiesJson === null) return undefined;
  const policies = JSON.parse(policiesJson) as Policy[];
  return policies[0];
}

function travelerNames(policy: Policy | undefined): string {
  return (policy?.travelers ?? []).map((traveler) => [traveler.first_name, traveler.last_name].filter(Boolean).join(' ')).join(', ');
}

/**
 * Excel date-times carry no zone: write the wall-clock time of `created` in the report's zone, so
 * the sheet shows the day and time the month was counted by (exceljs stores a Date's UTC fields).
 */
function excelDateTime(createdIso: string, zone: string): Date {
  const local = DateTime.fromISO(createdIso, { zone });
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
}
