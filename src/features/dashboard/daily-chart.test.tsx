import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { money } from '../../domain/money.ts';
import { feesSeries, type ChartModel } from './chart-series.ts';
import DailyChart from './daily-chart.tsx';

const dollars = (amount: number) => money(Math.round(amount * 1e6));

const model: ChartModel = {
  series: feesSeries,
  days: [
    { day: '2026-11-01', label: '11/1', date: 'Nov 1, 2026', amounts: [dollars(300), dollars(100)] },
    { day: '2026-11-02', label: '11/2', date: 'Nov 2, 2026', amounts: [dollars(-50), dollars(200)] },
    { day: '2026-11-03', label: '11/3', date: 'Nov 3, 2026', amounts: [dollars(0), dollars(0)] },
  ],
};

function bar(name: string) {
  const rect = screen.getByRole('button', { name });
  const number = (attribute: string) => Number(rect.getAttribute(attribute));
  return { x: number('x'), y: number('y'), width: number('width'), height: number('height') };
}

describe('the daily chart', () => {
  it("stacks a day's series, in order, up from zero, and draws a negative amount down from it", () => {
    render(<DailyChart model={model} selectedDay={null} currency="USD" label="Fees Chart, November 2026" onToggleDay={() => {}} onClearDay={() => {}} />);
    const referral = bar('11/1 Referral Fees $300.00');
    const connection = bar('11/1 Connection Fees $100.00');
    // One column: the connection fees sit on top of the referral fees, a third of their height.
    expect(connection.x).toBe(referral.x);
    expect(connection.width).toBe(referral.width);
    expect(connection.y + connection.height).toBeCloseTo(referral.y, 6);
    expect(connection.height * 3).toBeCloseTo(referral.height, 6);
    const zero = referral.y + referral.height;

    // A negative amount hangs below zero, and the positive one of its day still starts at zero.
    const refund = bar('11/2 Referral Fees -$50.00');
    const fees = bar('11/2 Connection Fees $200.00');
    expect(refund.y).toBeCloseTo(zero, 6);
    expect(refund.height * 2).toBeCloseTo(connection.height, 6);
    expect(fees.y + fees.height).toBeCloseTo(zero, 6);
    expect(refund.x).toBeGreaterThan(referral.x);

    // Zero amounts draw no bar and no tab stop: two days of two bars.
    expect(screen.getAllByRole('button')).toHaveLength(4);
  });
});
