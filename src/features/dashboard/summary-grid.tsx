// The summary grid: a <dl> of stat boxes (with platform sales, the first two count direct sales
// and two platform boxes follow). Under a value, once known, its change against the previous
// period, hidden from screen readers: the <dd> is described by its words instead, since a
// definition list's group holds only terms and definitions.
import { useId } from 'react';
import type { DashboardStats } from '../../domain/dashboard-model.ts';
import type { Change, ChangeStat, StatChanges } from '../../domain/period-change.ts';
import { formatMoney } from '../../domain/money.ts';

const counts = new Intl.NumberFormat();

const arrows: Record<Change['direction'], string> = { up: '▲ ', down: '▼ ', none: '' };

/** What a screen reader says: 'up 12.4% on the previous period', 'no change on the previous period'. */
export function changeText(change: Change): string {
  return change.direction === 'none' ? 'no change on the previous period' : `${change.direction} ${change.percent}% on the previous period`;
}

/** The change under a value; `id` names its words, which describe the value's <dd>. */
function ChangeLine({ change, id }: { change: Change; id: string }) {
  return (
    <p className={`stat-change stat-change--${change.direction}`} aria-hidden="true">
      <span>{`${arrows[change.direction]}${change.percent}%`}</span>
      <span id={id} className="visually-hidden">
        {changeText(change)}
      </span>
    </p>
  );
}

interface Box {
  stat: ChangeStat;
  label: string;
  value: string;
  accent?: 'teal' | 'pink';
}

export function SummaryGrid({
  stats,
  changes = null,
  currency,
}: {
  stats: DashboardStats;
  changes?: StatChanges | null;
  currency: string;
}) {
  const changeIds = useId();
  const platform = stats.hasPlatformSales;
  const boxes: Box[] = [
    { stat: 'numberOfSales', label: platform ? 'Number of Direct Sales' : 'Number of Sales', value: counts.format(stats.numberOfSales) },
    { stat: 'totalSales', label: platform ? 'Total Direct Sales' : 'Total Sales', value: formatMoney(stats.totalSales, currency) },
    { stat: 'referralFees', label: 'Referral Fees', value: formatMoney(stats.referralFees, currency), accent: 'teal' },
    { stat: 'connectionFees', label: 'Connection Fees', value: formatMoney(stats.connectionFees, currency), accent: 'pink' },
    ...(platform
      ? ([
          { stat: 'numberOfPlatformSales', label: 'Number of Platform Sales', value: counts.format(stats.numberOfPlatformSales) },
          { stat: 'platformSales', label: 'Platform Sales', value: formatMoney(stats.platformSales, currency), accent: 'pink' },
        ] satisfies Box[])
      : []),
  ];
  return (
    <dl className={`summary-grid summary-grid--${boxes.length}`}>
      {boxes.map((box) => {
        const change = changes?.[box.stat] ?? null;
        const changeId = `${changeIds}${box.stat}`;
        return (
          <div key={box.label} className={`stat${box.accent ? ` stat--${box.accent}` : ''}`}>
            <dt className="stat__label">{box.label}</dt>
            <dd className="stat__value" aria-describedby={change ? changeId : undefined}>
              {box.value}
            </dd>
            {change && <ChangeLine change={change} id={changeId} />}
          </div>
        );
      })}
    </dl>
  );
}
