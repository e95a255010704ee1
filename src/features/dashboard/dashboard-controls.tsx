// The dashboard's selectors, native <select>s labelled 'Affiliate' and 'Date range': the
// affiliate, hidden when one or no affiliate is available, and the date mode, with two date
// inputs in custom mode. They only send what the user chose. Beside the date mode, the time zone
// the days are counted in ('Days in Europe/Berlin'): the browser's, for the chart, tables and CSV.
import { useId, useState } from 'react';
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
  return (
    <div className="field dashboard-field dashboard-field--affiliate">
      <label htmlFor={id}>Affiliate</label>
      <select ref={selectRef} id={id} value={selected ?? ALL_AFFILIATES} onChange={(event) => onChange(event.target.value || null)}>
        <option value={ALL_AFFILIATES}>All affiliates</option>
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
            <DayInput id={`${id}-start`} placeholder="Start date" day={customStart} max={customEnd || undefined} onDay={onStart} />
          </div>
          <div className="field dashboard-field">
            <label htmlFor={`${id}-end`}>End date</label>
            <DayInput id={`${id}-end`} placeholder="End date" day={customEnd} min={customStart || undefined} onDay={onEnd} />
          </div>
          {(!customStart || !customEnd) && (
            <p className="dashboard-custom-range__hint">Until both days are chosen, the current month is shown.</p>
          )}
          {/* Days as 'yyyy-MM-dd' compare as text. The range is read the other way round. */}
          {customStart && customEnd && customEnd < customStart && (
            <p className="dashboard-custom-range__hint">The end date is before the start date: the days between them are shown.</p>
          )}
        </div>
      )}
    </>
  );
}

/** A year typed digit by digit passes through these on its way to four digits (0002, 0020, 0202). */
const PARTIAL_YEAR = /^0\d{3}-/;

/**
 * A date input that passes a day on once its year is typed out: each partial year is a valid date
 * too, and each would load a range. Leaving the field passes on whatever it holds.
 */
function DayInput({
  day,
  onDay,
  ...input
}: {
  id: string;
  placeholder: string;
  day: string;
  min?: string;
  max?: string;
  onDay: (day: string) => void;
}) {
  const [draft, setDraft] = useState(day);
  const [shown, setShown] = useState(day);
  // A day set from outside (the URL, Back) replaces the draft.
  if (day !== shown) {
    setShown(day);
    setDraft(day);
  }
  const pass = (value: string) => {
    if (value !== day) onDay(value);
  };
  return (
    <input
      {...input}
      type="date"
      value={draft}
      onChange={(event) => {
        setDraft(event.target.value);
        if (!PARTIAL_YEAR.test(event.target.value)) pass(event.target.value);
      }}
      onBlur={() => pass(draft)}
    />
  );
}
