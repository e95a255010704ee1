// A chart's model for the chart views' tests: `series` over consecutive days from Nov 1, 2026, one
// entry of `amounts` per day, each series' amount of that day in dollars.
import { money } from '../../src/domain/money.ts';
import type { ChartModel, ChartSeries } from '../../src/features/dashboard/chart-series.ts';

export function novemberChart(series: ChartSeries[], amounts: number[][]): ChartModel {
  return {
    series,
    days: amounts.map((dollars, index) => ({
      day: `2026-11-${String(index + 1).padStart(2, '0')}`,
      label: `11/${index + 1}`,
      date: `Nov ${index + 1}, 2026`,
      amounts: dollars.map((amount) => money(Math.round(amount * 1e6))),
    })),
  };
}
