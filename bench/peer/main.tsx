// The dashboard's plain peer in the browser bench: a returning user's Last 30 days, the stat boxes
// and the Fees Chart, written the straightforward way with the portal's own libraries and rules:
// SWR fetches the two lists with the stored token, the response schemas validate them, and
// bignumber.js sums them on the main thread (commission and fee at 6 decimals, display at 2, half
// to even), luxon places each item in its local day, @nivo/bar draws a bar per non-zero amount.
// No worker, no early calls, no preloads, no caches of its own. The bench builds it with Vite in
// each run and serves it as it serves the portal; its figures are checked as the portal's are.
import { ResponsiveBar, type BarDatum, type BarItemProps } from '@nivo/bar';
import BigNumber from 'bignumber.js';
import { DateTime } from 'luxon';
import { useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import useSWR from 'swr';
import { connectionFeeListSchema, paymentEventListSchema, type ConnectionFee, type PaymentEvent } from '../../src/api/schemas.ts';
import '../../src/styles.css';

const HALF_EVEN = BigNumber.ROUND_HALF_EVEN;
const ZERO = new BigNumber(0);
const SERIES = ['Referral Fees', 'Connection Fees'] as const;
const currency = new Intl.NumberFormat('en-US', { style: 'currency', currency: import.meta.env.VITE_CURRENCY || 'USD' });
const money = (value: BigNumber) => currency.format(value.toFixed(2, HALF_EVEN) as Intl.StringNumericLiteral);
const access = (JSON.parse(localStorage.getItem('auth_token') ?? '{}') as { access?: string }).access;
const today = DateTime.now().startOf('day');
const range = { start: today.minus({ days: 30 }), end: today.plus({ days: 1 }) };
const query = new URLSearchParams({ start: range.start.toISO(), end: range.end.toISO() });

async function list<T>(path: string, schema: { parse(data: unknown): T }): Promise<T> {
  const response = await fetch(`/api/v2/${path}?${query}`, { headers: { Authorization: `Bearer ${access}` } });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return schema.parse(await response.json());
}

const percentOf = (amount: string | null | undefined, percent: string | null | undefined) =>
  amount && percent ? new BigNumber(amount).times(percent).div(100).decimalPlaces(6, HALF_EVEN) : ZERO;
const amountOf = (amount: string | null | undefined) => new BigNumber(amount ?? 0);
const feeOf = (item: ConnectionFee) =>
  item.connection_fee_amount !== null ? amountOf(item.connection_fee_amount) : percentOf(item.amount, item.connection_fee_pc);

function figures(events: PaymentEvent[], fees: ConnectionFee[]) {
  const days = new Map<string, [BigNumber, BigNumber]>();
  for (let day = range.start; day < range.end; day = day.plus({ days: 1 })) days.set(day.toFormat('M/d'), [ZERO, ZERO]);
  const sales = new Map<number, BigNumber>();
  let [referral, connection, platform, platformCount] = [ZERO, ZERO, ZERO, 0];
  for (const event of events) {
    const day = days.get(DateTime.fromISO(event.created).toFormat('M/d'));
    if (!day) continue;
    const commission = percentOf(event.amount, event.order.affiliate_commission_pc);
    if (commission.isZero()) {
      platformCount++;
      platform = platform.plus(amountOf(event.amount));
      continue;
    }
    referral = referral.plus(commission);
    day[0] = day[0].plus(commission);
    if (!sales.has(event.id)) sales.set(event.id, amountOf(event.amount));
  }
  for (const item of fees) {
    const day = days.get(DateTime.fromISO(item.created).toFormat('M/d'));
    if (!day) continue;
    const fee = feeOf(item);
    connection = connection.plus(fee);
    day[1] = day[1].plus(fee);
    if (!sales.has(item.id)) sales.set(item.id, amountOf(item.amount));
  }
  const direct = platformCount > 0 ? 'Direct ' : '';
  const boxes: [string, string][] = [
    [`Number of ${direct}Sales`, sales.size.toLocaleString('en-US')],
    [`Total ${direct}Sales`, money([...sales.values()].reduce((sum, amount) => sum.plus(amount), ZERO))],
    ['Referral Fees', money(referral)],
    ['Connection Fees', money(connection)],
  ];
  if (platformCount > 0)
    boxes.push(['Number of Platform Sales', platformCount.toLocaleString('en-US')], ['Platform Sales', money(platform)]);
  // A bar per non-zero amount (nivo draws none for null), named with its day, series and amount.
  const chart = [...days].map(([day, sums]) => {
    const datum: BarDatum = { day };
    SERIES.forEach((series, i) => {
      if (sums[i]!.isZero()) return;
      datum[series] = sums[i]!.toNumber();
      datum[`${series} text`] = money(sums[i]!);
    });
    return datum;
  });
  return { boxes, chart };
}

function Bar({ bar }: BarItemProps<BarDatum>) {
  const { id, indexValue, data } = bar.data;
  const name = `${indexValue} ${id} ${data[`${id} text`]}`;
  return <rect x={bar.x} y={bar.y} width={bar.width} height={bar.height} fill={bar.color} role="button" aria-label={name} />;
}

function Dashboard() {
  const events = useSWR(['payment_events/', query.toString()], () => list('payment_events/', paymentEventListSchema));
  const fees = useSWR(['connection_fees/', query.toString()], () => list('connection_fees/', connectionFeeListSchema));
  const shown = useMemo(() => events.data && fees.data && figures(events.data, fees.data), [events.data, fees.data]);
  if (events.error || fees.error) return <p role="alert">{String(events.error ?? fees.error)}</p>;
  if (!shown) return <p role="status">Loading...</p>;
  const { boxes, chart } = shown;
  return (
    <main className="container">
      <h1>Sales Dashboard</h1>
      <section aria-label="Summary">
        <dl>
          {boxes.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <div style={{ height: 360 }}>
        <ResponsiveBar
          data={chart}
          keys={[...SERIES]}
          indexBy="day"
          margin={{ top: 10, right: 10, bottom: 30, left: 60 }}
          colors={['#0f766e', '#be185d']}
          barComponent={Bar}
          animate={false}
          role="group"
          ariaLabel={`Fees Chart, ${range.start.toFormat('MMMM yyyy')}`}
        />
      </div>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Dashboard />);
