import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { money } from '../../domain/money.ts';
import type { StatChanges } from '../../domain/period-change.ts';
import { SummaryGrid } from './summary-grid.tsx';

const stats = {
  numberOfSales: 12,
  totalSales: money(1_234_500_000),
  referralFees: money(123_450_000),
  connectionFees: money(0),
  numberOfPlatformSales: 0,
  platformSales: money(0),
  hasPlatformSales: false,
};
const changes: StatChanges = {
  numberOfSales: { direction: 'up', percent: '12.4' },
  totalSales: { direction: 'down', percent: '1,250.0' },
  referralFees: { direction: 'none', percent: '0.0' },
  connectionFees: null,
  numberOfPlatformSales: null,
  platformSales: null,
};

/** A box's group: its <dt>'s parent. */
const box = (label: string) => screen.getAllByRole('term').find((term) => term.textContent === label)!.parentElement!;

describe('SummaryGrid: change against the previous period', () => {
  it('shows an arrow and the percentage outside the <dd>, and describes the value in words for screen readers', () => {
    render(<SummaryGrid stats={stats} changes={changes} currency="USD" />);

    // The box's one definition is its value; the change is its description.
    const sales = box('Number of Sales');
    const value = within(sales).getByRole('definition');
    expect(value.tagName).toBe('DD');
    expect(value).toHaveTextContent(/^12$/);
    expect(value).toHaveAccessibleDescription('up 12.4% on the previous period');
    const change = sales.querySelector('p')!;
    expect(change).toHaveClass('stat-change', 'stat-change--up');
    expect(change).toHaveAttribute('aria-hidden', 'true');
    expect(within(change).getByText('▲ 12.4%')).toBeVisible();
    expect(within(change).getByText('up 12.4% on the previous period')).toHaveClass('visually-hidden');

    const described = (label: string) => within(box(label)).getByRole('definition');
    expect(within(box('Total Sales')).getByText('▼ 1,250.0%')).toBeInTheDocument();
    expect(described('Total Sales')).toHaveAccessibleDescription('down 1,250.0% on the previous period');
    expect(within(box('Referral Fees')).getByText('0.0%')).toBeInTheDocument();
    expect(described('Referral Fees')).toHaveAccessibleDescription('no change on the previous period');
  });

  it('shows nothing where the previous figure was zero, or while the change is not known', () => {
    const { rerender } = render(<SummaryGrid stats={stats} changes={changes} currency="USD" />);
    expect(within(box('Connection Fees')).getByRole('definition')).not.toHaveAttribute('aria-describedby');
    expect(box('Connection Fees').querySelector('.stat-change')).toBeNull();

    rerender(<SummaryGrid stats={stats} changes={null} currency="USD" />);
    expect(screen.queryByText(/on the previous period/)).not.toBeInTheDocument();
    expect(screen.getAllByRole('definition')).toHaveLength(4);
  });
});
