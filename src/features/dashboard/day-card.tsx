// The selected day on a phone, where the detail tables are hidden: a compact card under the
// chart with that day's amounts of the chart's series (fees, or sales), and a 'Clear day' button.
// From 768 px the tables show the day, and the card is hidden (dashboard.css).
import { useId } from 'react';
import { formatMoney } from '../../domain/money.ts';
import type { ChartModel } from './chart-series.ts';

export interface DayCardProps {
  model: ChartModel;
  selectedDay: string;
  currency: string;
  /** Clears the selected day; `focusAfter` is where the focus goes, as the card goes with the day. */
  onClearDay: () => void;
  focusAfter: () => void;
}

export function DayCard({ model, selectedDay, currency, onClearDay, focusAfter }: DayCardProps) {
  const headingId = useId();
  const day = model.days.find((slot) => slot.day === selectedDay);
  if (!day) return null;
  return (
    <section className="dashboard-card day-card" aria-labelledby={headingId}>
      <div className="day-card__head">
        <h2 id={headingId} className="day-card__title">
          {day.date}
        </h2>
        <button
          type="button"
          className="day-card__clear"
          onClick={() => {
            focusAfter();
            onClearDay();
          }}
        >
          Clear day
        </button>
      </div>
      <dl className="day-card__figures">
        {model.series.map((serie, index) => (
          <div key={serie.name}>
            <dt>
              <span className={`chart-swatch ${serie.line}`} aria-hidden="true" />
              {serie.name}
            </dt>
            <dd>{formatMoney(day.amounts[index]!, currency)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
