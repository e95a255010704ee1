// The daily stacked bar chart with @nivo/bar. Its bars (ChartBar) are labelled toggle buttons
// ('11/5 Referral Fees $12.34') behind one tab stop, moved by the arrow keys, Home and End
// (chart-keys.ts); Escape or a click on empty space clears the day. Nothing animates. The width is
// measured here, since nivo's Responsive wrapper measures 0 in jsdom.
import { Bar, type BarCustomLayerProps, type BarDatum, type BarLayer } from '@nivo/bar';
import { createContext, use, useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { formatMoney } from '../../domain/money.ts';
import { AxisLabelsContext, ChartAxes, ChartGrid, type AxisLabels } from './chart-axes.tsx';
import { chartKeyAction, firstBar, type BarCell } from './chart-keys.ts';
import type { ChartModel } from './chart-series.ts';
import { useElementWidth } from './use-element-width.ts';

/** What the keyboard does in the chart, for screen readers (the chart's description). */
export const CHART_KEYS_HINT = 'Arrow keys move between days and series, Enter or Space selects the day, Escape clears it.';

export interface DailyChartProps {
  model: ChartModel;
  selectedDay: string | null;
  currency: string;
  /** The chart's accessible name: 'Fees Chart, November 2026'. */
  label: string;
  onToggleDay: (day: string) => void;
  onClearDay: () => void;
}

/** What a hovered or focused bar shows: its day and series, at its top centre (chart coordinates). */
interface Tip {
  day: string;
  series: string;
  x: number;
  y: number;
}

/** One bar: a day's amount of one series, stacked on that day's others, from `from` to `to` (currency units). */
interface Segment {
  day: string;
  series: string;
  color: string;
  /** The outline's class. */
  line: string;
  from: number;
  to: number;
  /** Its place in the keyboard's grid of days and series. */
  cell: BarCell;
}

const barKey = ({ day, series }: BarCell) => `${day}.${series}`;

interface ChartInteraction {
  segments: readonly Segment[];
  selectedDay: string | null;
  /** The bar that is the chart's tab stop ('dayIndex.seriesIndex'). */
  tabStop: string | null;
  describe: (day: string, series: string) => string;
  toggle: (day: string) => void;
  clear: () => void;
  /** A key pressed on a bar: moves the focus, or toggles or clears the day; true when handled. */
  press: (key: string, at: BarCell) => boolean;
  focused: (cell: BarCell) => void;
  show: (tip: Tip) => void;
  hide: () => void;
}

const ChartContext = createContext<ChartInteraction | null>(null);

function useChart(): ChartInteraction {
  const chart = use(ChartContext);
  if (!chart) throw new Error('Chart parts must be rendered inside DailyChart');
  return chart;
}

/** A bar's place inside the chart's margins, and its top centre in chart coordinates (for the tip). */
interface Placed {
  x: number;
  y: number;
  width: number;
  height: number;
  tipX: number;
  tipY: number;
}

function ChartBar({ segment, place }: { segment: Segment; place: Placed }) {
  const chart = useChart();
  const { day, series, color, line, cell } = segment;
  const selected = chart.selectedDay === day;
  const tip: Tip = { day, series, x: place.tipX, y: place.tipY };
  const onKeyDown = (event: KeyboardEvent<SVGRectElement>) => {
    if (chart.press(event.key, cell)) event.preventDefault();
  };
  return (
    <rect
      className={`chart-bar ${line}`}
      x={place.x}
      y={place.y}
      width={Math.max(place.width, 0)}
      height={Math.max(place.height, 0)}
      fill={color}
      fillOpacity={selected ? 0.8 : 0.5}
      stroke={color}
      strokeWidth={selected ? 3 : 1}
      role="button"
      tabIndex={chart.tabStop === barKey(cell) ? 0 : -1}
      data-bar={barKey(cell)}
      aria-pressed={selected}
      aria-label={chart.describe(day, series)}
      onClick={(event) => {
        event.stopPropagation();
        chart.toggle(day);
      }}
      onKeyDown={onKeyDown}
      onMouseEnter={() => chart.show(tip)}
      onMouseLeave={chart.hide}
      onFocus={() => {
        chart.focused(cell);
        chart.show(tip);
      }}
      onBlur={chart.hide}
    />
  );
}

/** Empty chart space, under the bars: a click there clears the selected day. */
function EmptySpace({ innerWidth, innerHeight }: BarCustomLayerProps<BarDatum>) {
  const chart = useChart();
  // Pointer-only on purpose: keyboard users clear with Escape, or by pressing the selected day's bar again.
  return <rect className="chart-empty-space" width={innerWidth} height={innerHeight} fill="transparent" onClick={chart.clear} />;
}

/**
 * The bars, placed on nivo's scales. nivo is given the days without their amounts (and the value
 * scale's bounds): its own bars would each run a set of springs, on every render, to no effect here.
 */
function Bars({ xScale, yScale, margin }: BarCustomLayerProps<BarDatum>) {
  const { segments } = useChart();
  // nivo's band scale of the days and linear scale of the amounts.
  const band = xScale as ((day: string) => number | undefined) & { bandwidth(): number };
  const value = yScale as (amount: number) => number;
  return segments.map((segment) => {
    const x = band(segment.day) ?? 0;
    const top = value(Math.max(segment.from, segment.to));
    const place = { x, y: top, width: band.bandwidth(), height: value(Math.min(segment.from, segment.to)) - top };
    const tip = { tipX: margin.left + x + place.width / 2, tipY: margin.top + top };
    return <ChartBar key={`${segment.series}.${segment.day}`} segment={segment} place={{ ...place, ...tip }} />;
  });
}

/** Each day's amounts stacked in series order, positive ones up from 0 and negative ones down. */
function stackSegments({ days, series }: ChartModel): { segments: Segment[]; min: number; max: number } {
  const segments: Segment[] = [];
  let min = 0;
  let max = 0;
  days.forEach((day, dayIndex) => {
    let up = 0;
    let down = 0;
    day.amounts.forEach((amount, index) => {
      const serie = series[index];
      // A zero amount draws no bar (and no tab stop).
      if (!serie || amount.micro === 0) return;
      const size = amount.micro / 1e6;
      const from = size > 0 ? up : down;
      const to = from + size;
      if (size > 0) up = to;
      else down = to;
      segments.push({
        day: day.day,
        series: serie.name,
        color: serie.color,
        line: serie.line,
        from,
        to,
        cell: { day: dayIndex, series: index },
      });
    });
    min = Math.min(min, down);
    max = Math.max(max, up);
  });
  return { segments, min, max };
}

const layers: BarLayer<BarDatum>[] = [ChartGrid, EmptySpace, ChartAxes, Bars];

const FALLBACK_WIDTH = 720;

export default function DailyChart({ model, selectedDay, currency, label, onToggleDay, onClearDay }: DailyChartProps) {
  const [ref, measured] = useElementWidth<HTMLDivElement>(FALLBACK_WIDTH);
  const width = measured ?? FALLBACK_WIDTH;
  const [tip, setTip] = useState<Tip | null>(null);
  // Escape dismisses the tooltip wherever focus is, without moving the pointer off its bar.
  const shown = tip !== null;
  useEffect(() => {
    if (!shown) return;
    const dismiss = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') setTip(null);
    };
    document.addEventListener('keydown', dismiss);
    return () => document.removeEventListener('keydown', dismiss);
  }, [shown]);
  // The bar that last had the focus, by day and series, so that it stays the tab stop.
  const [focus, setFocus] = useState<{ day: string; series: string } | null>(null);
  const hintId = useId();
  const { series, days } = model;

  const narrow = width < 560;
  const height = narrow ? 240 : 300;
  const margin = { top: 16, right: 8, bottom: 32, left: narrow ? 52 : 64 };
  const innerWidth = Math.max(width - margin.left - margin.right, 0);

  const byDay = useMemo(() => new Map(days.map((day) => [day.day, day])), [days]);
  const data = useMemo(() => days.map((day): BarDatum => ({ day: day.day })), [days]);
  const { segments, min, max } = useMemo(() => stackSegments(model), [model]);
  const drawn = useMemo(() => days.map((day) => day.amounts.map((amount) => amount.micro !== 0)), [days]);
  const tabStop = useMemo(() => {
    const at = (day: string, name: string | undefined) =>
      segments.find((segment) => segment.day === day && (name === undefined || segment.series === name));
    // The bar last focused; else the selected day's first bar; else the first bar.
    const cell =
      (focus && at(focus.day, focus.series)?.cell) ??
      (selectedDay !== null ? at(selectedDay, undefined)?.cell : undefined) ??
      firstBar(drawn);
    return cell ? barKey(cell) : null;
  }, [segments, focus, selectedDay, drawn]);

  const amountOf = (day: string, name: string) => {
    const index = series.findIndex((serie) => serie.name === name);
    const amount = byDay.get(day)?.amounts[index];
    return amount ? formatMoney(amount, currency) : '';
  };

  // Every nth day label, so that labels never overlap (about 44 px each).
  const step = Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor(innerWidth / (narrow ? 40 : 48)))));
  const dayTicks = days.filter((_, index) => index % step === 0).map((day) => day.day);
  const yFormat = useMemo(
    () => new Intl.NumberFormat(undefined, { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 }),
    [currency],
  );
  const axisLabels: AxisLabels = {
    dayTicks,
    dayLabel: (day) => byDay.get(day)?.label ?? day,
    amountLabel: (amount) => yFormat.format(amount),
  };

  const interaction: ChartInteraction = {
    segments,
    selectedDay,
    tabStop,
    describe: (day, name) => `${byDay.get(day)?.label ?? day} ${name} ${amountOf(day, name)}`,
    toggle: onToggleDay,
    clear: onClearDay,
    press: (key, at) => {
      const action = chartKeyAction(key, at, drawn);
      const day = days[at.day]?.day;
      if (action?.type === 'toggle' && day !== undefined) onToggleDay(day);
      else if (action?.type === 'clear') onClearDay();
      // Every bar is drawn, only its tabindex roves: the target is there to focus now.
      else if (action?.type === 'focus') ref.current?.querySelector<SVGRectElement>(`[data-bar="${barKey(action.cell)}"]`)?.focus();
      return action !== null;
    },
    focused: (cell) => {
      const day = days[cell.day]?.day;
      const name = series[cell.series]?.name;
      if (day !== undefined && name !== undefined) setFocus({ day, series: name });
    },
    show: setTip,
    hide: () => setTip(null),
  };

  const tipDay = tip ? byDay.get(tip.day) : undefined;
  const isEmpty = days.every((day) => day.amounts.every((amount) => amount.micro === 0));

  return (
    <div ref={ref} className="daily-chart" style={{ height }}>
      {measured !== null && (
        <ChartContext value={interaction}>
          <AxisLabelsContext value={axisLabels}>
            <Bar<BarDatum>
              width={width}
              height={height}
              data={data}
              keys={series.map((serie) => serie.name)}
              indexBy="day"
              groupMode="stacked"
              margin={margin}
              padding={days.length > 45 ? 0.15 : 0.25}
              layers={layers}
              enableLabel={false}
              isInteractive={false}
              animate={false}
              role="group"
              ariaLabel={label}
              ariaDescribedBy={hintId}
              valueScale={{ type: 'linear', min, max, nice: true }}
            />
          </AxisLabelsContext>
        </ChartContext>
      )}
      <p id={hintId} className="visually-hidden">
        {CHART_KEYS_HINT}
      </p>
      {isEmpty && <p className="daily-chart__empty">No amounts in this period.</p>}
      {tip && tipDay && (
        <div className="daily-chart__tooltip" aria-hidden="true" style={{ left: Math.min(Math.max(tip.x, 90), width - 90), top: tip.y }}>
          <span className="daily-chart__tooltip-date">{tipDay.date}</span>
          <span>
            <span className={`chart-swatch ${series.find((serie) => serie.name === tip.series)?.line ?? ''}`} />
            {tip.series}: <strong>{amountOf(tip.day, tip.series)}</strong>
          </span>
        </div>
      )}
    </div>
  );
}
