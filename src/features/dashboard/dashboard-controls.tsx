// The dashboard's selectors, native <select>s labelled 'Affiliate' and 'Date range': the
// affiliate, hidden when one or no affiliate is available, and the date mode, with two date
// inputs in custom mode. They only send what the user chose. Beside the date mode, the time zone
// the days are counted in ('Days in Europe/Berlin'): the browser's, for the chart, tables and CSV.
import { useId } from 'react';
import type { Affiliate } from '../../api/affiliates.ts';
import { DATE_MODE_LABELS, DATE_MODES, type DateMode } from '../../domain/dates.ts';

export const ALL_AFFILIATES = '';

const isDateMode = (value: string): value is DateMode => DATE_MODES.some((mode) => mode === value);

export function AffiliateSelect({
  affiliates,
  selected,
  onChange,
  selectRef,
}: {
  affiliates: readonly Affiliate[];
  selected: string | null;
  onChange: (affiliateId: string | null) => void;
  selectRef?: (select: HTMLSelectElement | null) => void;
}) {
  const id = useId();
  // A route's affiliate the list does not know still shows as chosen.
  const unknown = selected !== null && !affiliates.some((affiliate) => affiliate.id === selected);
  return (
    <div className="field dashboard-field dashboard-field--affiliate">
      <label htmlFor={id}>Affiliate</label>
      <select ref={selectRef} id={id} value={selected ?? ALL_AFFILIATES} onChange={(event) => onChange(event.target.value || null)}>
        <option value={ALL_AFFILIATES}>All affiliates</option>
        {unknown && <option value={selected}>{selected}</option>}
        {affiliates.map((affiliate) => (
          <option key={affiliate.id} value={affiliate.id}>
            {affiliate.name}
          </option>
        ))}
      </select>
    </div>
  );
}

export interface DateRangeControlsProps {
  mode: DateMode;
  customStart: string;
  customEnd: string;
  onMode: (mode: DateMode) => void;
  onStart: (day: string) => void;
  onEnd: (day: string) => void;
  /** IANA zone of the range's days. */
  zone?: string;
}

export function DateRangeControls({ mode, customStart, customEnd, onMode, onStart, onEnd, zone }: DateRangeControlsProps) {
  const id = useId();
  return (
    <>
      <div className="field dashboard-field">
        <label htmlFor={`${id}-mode`}>Date range</label>
        <select
          id={`${id}-mode`}
          aria-describedby={zone ? `${id}-zone` : undefined}
          value={mode}
          onChange={(event) => {
            if (isDateMode(event.target.value)) onMode(event.target.value);
          }}
        >
          {DATE_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {DATE_MODE_LABELS[mode]}
            </option>
          ))}
        </select>
      </div>
      {zone && (
        <p id={`${id}-zone`} className="dashboard-zone">
          {`Days in ${zone}`}
        </p>
      )}
      {mode === 'custom' && (
        <div className="dashboard-custom-range">
          <div className="field dashboard-field">
            <label htmlFor={`${id}-start`}>Start date</label>
            <input
              id={`${id}-start`}
              type="date"
              placeholder="Start date"
              value={customStart}
              max={customEnd || undefined}
              onChange={(event) => onStart(event.target.value)}
            />
          </div>
          <div className="field dashboard-field">
            <label htmlFor={`${id}-end`}>End date</label>
            <input
              id={`${id}-end`}
              type="date"
              placeholder="End date"
              value={customEnd}
              min={customStart || undefined}
              onChange={(event) => onEnd(event.target.value)}
            />
          </div>
          {(!customStart || !customEnd) && (
            <p className="dashboard-custom-range__hint">Until both days are chosen, the current month is shown.</p>
          )}
        </div>
      )}
    </>
  );
}
