// The detail tables (spec section 2), hidden on mobile (dashboard.css): Sales Details, Platform
// Sales, and Connection Fee Details when fee items exist. Headings come from the model ('Sales
// Details for Nov 5, 2026' with a day selected); amounts are formatted, never computed, here.
import { useId, type ReactNode } from 'react';
import { SALES_DETAILS_LIMIT, type Dashboard } from '../../domain/dashboard-model.ts';
import { formatMoney } from '../../domain/money.ts';

interface Column {
  title: string;
  numeric?: boolean;
}

function DetailTable({
  heading,
  columns,
  empty,
  note,
  children,
}: {
  heading: string;
  columns: Column[];
  /** The empty state, shown as the table's only row. */
  empty: string | null;
  note?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className="dashboard-card detail-table" aria-labelledby={headingId}>
      <h2 id={headingId} className="detail-table__heading">
        {heading}
      </h2>
      {note && <p className="detail-table__note">{note}</p>}
      <div className="table-wrap">
        <table aria-labelledby={headingId}>
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
            {empty === null ? (
              children
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
        empty={salesDetails.rows.length === 0 ? `No sales ${when}.` : null}
        note={salesDetails.truncated ? `The ${SALES_DETAILS_LIMIT} most recent sales. Select a day in the chart to see all of its sales.` : undefined}
      >
        {salesDetails.rows.map((row) => (
          <tr key={row.key}>
            <td className="nowrap">{row.date}</td>
            <td>{row.policyNumber}</td>
            <td>{row.traveler}</td>
            <td className="numeric">{money(row.amount)}</td>
            <td className="numeric">{money(row.referralFees)}</td>
          </tr>
        ))}
      </DetailTable>
      <div className="dashboard-tables__pair">
        <DetailTable
          heading={platformSalesTable.heading}
          columns={[{ title: 'Affiliate' }, { title: 'Sales', numeric: true }, { title: 'Total Premium', numeric: true }]}
          empty={platformSalesTable.rows.length === 0 ? `No platform sales ${when}.` : null}
        >
          {platformSalesTable.rows.map((row) => (
            <tr key={row.key}>
              <td>{row.affiliate}</td>
              <td className="numeric">{row.sales}</td>
              <td className="numeric">{money(row.totalPremium)}</td>
            </tr>
          ))}
        </DetailTable>
        {connectionFeeTable.hasItems && (
          <DetailTable
            heading={connectionFeeTable.heading}
            columns={[{ title: 'Connected Affiliate' }, { title: 'Sales', numeric: true }, { title: 'Connection Fees', numeric: true }]}
            empty={connectionFeeTable.rows.length === 0 ? `No connection fees ${when}.` : null}
          >
            {connectionFeeTable.rows.map((row) => (
              <tr key={row.key}>
                <td>{row.connectedAffiliate}</td>
                <td className="numeric">{row.sales}</td>
                <td className="numeric">{money(row.connectionFees)}</td>
              </tr>
            ))}
          </DetailTable>
        )}
      </div>
    </div>
  );
}
