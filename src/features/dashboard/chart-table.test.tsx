import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { novemberChart } from '../../../tests/utils/chart-model.ts';
import { salesSeries } from './chart-series.ts';
import { ChartTable } from './chart-table.tsx';

const model = novemberChart(salesSeries, [
  [1234.5, 0],
  [-50, 200.125],
]);

describe("the chart's table for screen readers", () => {
  it('has a row per day, a column per series and the amounts formatted, under its caption', () => {
    render(<ChartTable model={model} currency="USD" caption="Sales Chart, November 2026: amounts per day" />);
    const table = screen.getByRole('table', { name: 'Sales Chart, November 2026: amounts per day' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Day', 'Direct Sales', 'Platform Sales']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    // Zero amounts are shown too; halves round to even, as everywhere.
    expect(rows).toEqual([
      ['Nov 1, 2026', '$1,234.50', '$0.00'],
      ['Nov 2, 2026', '-$50.00', '$200.12'],
    ]);
    expect(within(table).getByRole('rowheader', { name: 'Nov 2, 2026' })).toBeInTheDocument();
  });
});
