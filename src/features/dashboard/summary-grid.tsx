// The summary grid: a <dl>, each stat box a <div> with a <dt> label and a <dd> value. With platform
// sales the first two boxes count direct sales only and two platform boxes follow.
import type { DashboardStats } from '../../domain/dashboard-model.ts';
import { formatMoney } from '../../domain/money.ts';

const counts = new Intl.NumberFormat();

export function SummaryGrid({ stats, currency }: { stats: DashboardStats; currency: string }) {
  const platform = stats.hasPlatformSales;
  const boxes = [
    { label: platform ? 'Number of Direct Sales' : 'Number of Sales', value: counts.format(stats.numberOfSales) },
    { label: platform ? 'Total Direct Sales' : 'Total Sales', value: formatMoney(stats.totalSales, currency) },
    { label: 'Referral Fees', value: formatMoney(stats.referralFees, currency), accent: 'teal' },
    { label: 'Connection Fees', value: formatMoney(stats.connectionFees, currency), accent: 'pink' },
    ...(platform
      ? [
          { label: 'Number of Platform Sales', value: counts.format(stats.numberOfPlatformSales) },
          { label: 'Platform Sales', value: formatMoney(stats.platformSales, currency), accent: 'pink' },
        ]
      : []),
  ];
  return (
    <dl className={`summary-grid summary-grid--${boxes.length}`}>
      {boxes.map((box) => (
        <div key={box.label} className={`stat${box.accent ? ` stat--${box.accent}` : ''}`}>
          <dt className="stat__label">{box.label}</dt>
          <dd className="stat__value">{box.value}</dd>
        </div>
      ))}
    </dl>
  );
}
