// The detail tables, hidden on mobile (dashboard.css): Sales Details, Platform Sales, and
// Connection Fee Details when fee items exist. Headings come from the model
// ('Sales Details for Nov 5, 2026' with a day selected); amounts are formatted, never computed, here.
// A day may have thousands of sales, all of them listed ("with a day all shown"): such a table
// gets its rows in steps, one task each, so that the page answers while they are added, and the
// browser skips laying it out while it is off screen (content-visibility).
import { startTransition, useEffect, useId, useState, type ReactNode } from 'react';
import { SALES_DETAILS_LIMIT, type Dashboard } from '../../domain/dashboard-model.ts';
import { formatMoney } from '../../domain/money.ts';

/** Rows rendered at once, then added per step. */
const FIRST_ROWS = 100;
const MORE_ROWS = 500;

/** How many of `rows` to render now: all of a short list; a long one grows step by step. */
function useRowsShown(rows: readonly unknown[]): number {
  const [shown, setShown] = useState({ rows, count: Math.min(rows.length, FIRST_ROWS) });
  let current = shown;
  if (shown.rows !== rows) {
    current = { rows, count: Math.min(rows.length, FIRST_ROWS) };
    setShown(current);
  }
  const { count } = current;
  useEffect(() => {
    if (count >= rows.length) return undefined;
    const step = setTimeout(() => {
      startTransition(() => setShown((now) => (now.rows === rows ? { rows, count: Math.min(rows.length, now.count + MORE_ROWS) } : now)));
    }, 0);
    return () => clearTimeout(step);
  }, [rows, count]);
  return count;
}

interface Column {
  title: string;
  numeric?: boolean;
}

function DetailTable<Row>({
  heading,
  columns,
  rows,
  row,
  empty,
  note,
}: {
  heading: string;
  columns: Column[];
  rows: readonly Row[];
  row: (row: Row) => ReactNode;
  /** The empty state, shown as the table's only row. */
  empty: string;
  note?: string;
}) {
  const headingId = useId();
  const shown = useRowsShown(rows);
  return (
    <section className="dashboard-card detail-table" aria-labelledby={headingId}>
      <h2 id={headingId} className="detail-table__heading">
        {heading}
      </h2>
      {note && <p className="detail-table__note">{note}</p>}
      <div className={rows.length > FIRST_ROWS ? 'table-wrap table-wrap--long' : 'table-wrap'}>
        <table aria-labelledby={headingId} aria-busy={shown < rows.length || undefined}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.title} scope="col" className={column.numeric ? 'numeric' : undefined}>
                  {column.title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length > 0 ? (
              rows.slice(0, shown).map(row)
            ) : (
              <tr>
                <td colSpan={columns.length} className="detail-table__empty">
                  {empty}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export interface DetailTablesProps {
  dashboard: Dashboard;
  selectedDay: string | null;
  currency: string;
}

export function DetailTables({ dashboard, selectedDay, currency }: DetailTablesProps) {
  const { salesDetails, platformSalesTable, connectionFeeTable } = dashboard;
  const when = selectedDay === null ? 'in this period' : 'for this day';
  const money = (value: Parameters<typeof formatMoney>[0]) => formatMoney(value, currency);

  return (
    <div className="dashboard-tables">
      <DetailTable
        heading={salesDetails.heading}
        columns={[{ title: 'Date' }, { title: 'Policy Number' }, { title: 'Traveler' }, { title: 'Amount', numeric: true }, { title: 'Referral Fees', numeric: true }]}
        rows={salesDetails.rows}
        empty={`No sales ${when}.`}
        note={salesDetails.truncated ? `The ${SALES_DETAILS_LIMIT} most recent sales. Select a day in the chart to see all of its sales.` : undefined}
        row={(row) => (
          <tr key={row.key}>
            <td className="nowrap">{row.date}</td>
            <td>{row.policyNumber}</td>
            <td>{row.traveler}</td>
            <td className="numeric">{money(row.amount)}</td>
            <td className="numeric">{money(row.referralFees)}</td>
          </tr>
        )}
      />
      <div className="dashboard-tables__pair">
        <DetailTable
          heading={platformSalesTable.heading}
          columns={[{ title: 'Affiliate' }, { title: 'Sales', numeric: true }, { title: 'Total Premium', numeric: true }]}
          rows={platformSalesTable.rows}
          empty={`No platform sales ${when}.`}
          row={(row) => (
            <tr key={row.key}>
              <td>{row.affiliate}</td>
              <td className="numeric">{row.sales}</td>
              <td className="numeric">{money(row.totalPremium)}</td>
            </tr>
          )}
        />
        {connectionFeeTable.hasItems && (
          <DetailTable
            heading={connectionFeeTable.heading}
            columns={[{ title: 'Connected Affiliate' }, { title: 'Sales', numeric: true }, { title: 'Connection Fees', numeric: true }]}
            rows={connectionFeeTable.rows}
            empty={`No connection fees ${when}.`}
            row={(row) => (
              <tr key={row.key}>
                <td>{row.connectedAffiliate}</td>
                <td className="numeric">{row.sales}</td>
                <td className="numeric">{money(row.connectionFees)}</td>
              </tr>
            )}
          />
        )}
      </div>
    </div>
  );
}
