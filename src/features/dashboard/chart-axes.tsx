// The chart's grid and axes as plain SVG on nivo's scales, as custom layers: nivo's own run a
// spring per tick on every render. Their colours follow the page's theme through CSS.
import type { BarCustomLayerProps, BarDatum } from '@nivo/bar';
import { createContext, use } from 'react';

/** The value axis's ticks and the grid's lines: about five round amounts. */
const VALUE_TICKS = 5;
/** Space between a label and its axis. */
const LEFT_LABEL_GAP = 8;
const BOTTOM_LABEL_GAP = 10;

type LayerProps = BarCustomLayerProps<BarDatum>;
/** nivo's band scale of the days and linear scale of the amounts. */
type DayScale = ((day: string) => number | undefined) & { bandwidth(): number };
type AmountScale = ((amount: number) => number) & { ticks(count: number): number[] };

/** A horizontal line at each value tick. */
export function ChartGrid({ yScale, innerWidth }: LayerProps) {
  const value = yScale as unknown as AmountScale;
  return (
    <g className="chart-grid">
      {value.ticks(VALUE_TICKS).map((amount) => (
        <line key={amount} x1={0} x2={innerWidth} y1={value(amount)} y2={value(amount)} />
      ))}
    </g>
  );
}

/** What the axes label: given by the chart, since nivo hands its layers only its own props. */
export interface AxisLabels {
  /** The days labelled under the chart (every nth, so that labels never overlap). */
  dayTicks: readonly string[];
  dayLabel: (day: string) => string;
  amountLabel: (amount: number) => string;
}

export const AxisLabelsContext = createContext<AxisLabels>({ dayTicks: [], dayLabel: String, amountLabel: String });

/** The amounts on the left, the days' labels under their bars, each axis with its line. */
export function ChartAxes({ xScale, yScale, innerWidth, innerHeight }: LayerProps) {
  const { dayTicks, dayLabel, amountLabel } = use(AxisLabelsContext);
  const day = xScale as unknown as DayScale;
  const value = yScale as unknown as AmountScale;
  const middle = day.bandwidth() / 2;
  return (
    <g className="chart-axes">
      <g className="chart-axis">
        {value.ticks(VALUE_TICKS).map((amount) => (
          <text key={amount} x={-LEFT_LABEL_GAP} y={value(amount)} dominantBaseline="central" textAnchor="end">
            {amountLabel(amount)}
          </text>
        ))}
        <line className="chart-axis__domain" x1={0} x2={0} y1={0} y2={innerHeight} />
      </g>
      <g className="chart-axis" transform={`translate(0,${innerHeight})`}>
        {dayTicks.map((tick) => (
          <text key={tick} x={(day(tick) ?? 0) + middle} y={BOTTOM_LABEL_GAP} dominantBaseline="text-before-edge" textAnchor="middle">
            {dayLabel(tick)}
          </text>
        ))}
        <line className="chart-axis__domain" x1={0} x2={innerWidth} y1={0} y2={0} />
      </g>
    </g>
  );
}
