import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { dateRange } from './dates.ts';
import {
  CHART_MODES,
  DATE_MODES,
  DEFAULT_VIEW,
  isCalendarDay,
  isCustomRangeAllowed,
  parseView,
  rangeDays,
  serialiseView,
  viewHref,
  type DashboardView,
} from './view-query.ts';

const today = '2026-11-05';

describe('parseView', () => {
  it('reads the example link of all parts', () => {
    expect(parseView('?range=custom&start=2026-10-01&end=2026-10-31&day=2026-10-05&chart=sales', today)).toEqual({
      mode: 'custom',
      start: '2026-10-01',
      end: '2026-10-31',
      day: '2026-10-05',
      chart: 'sales',
    });
  });

  it('reads no query as the default view: Last 30 days, no day, the Fees Chart', () => {
    expect(parseView('', today)).toEqual(DEFAULT_VIEW);
    expect(parseView('?', today)).toEqual(DEFAULT_VIEW);
  });

  it('reads each mode, with or without the leading "?"', () => {
    for (const mode of DATE_MODES) expect(parseView(`range=${mode}`, today).mode).toBe(mode);
    expect(parseView('?range=previous&chart=sales', today)).toMatchObject({ mode: 'previous', chart: 'sales' });
  });

  it('falls back to Last 30 days for an unknown mode', () => {
    expect(parseView('range=lastweek&chart=sales', today)).toEqual({ ...DEFAULT_VIEW, chart: 'sales' });
    expect(parseView('range=LAST30', today).mode).toBe('last30');
  });

  it('falls back to the Fees Chart for a chart other than fees or sales', () => {
    expect(parseView('chart=pie', today).chart).toBe('fees');
    expect(parseView('chart=', today).chart).toBe('fees');
  });

  it('drops an impossible custom day, leaving the range incomplete (the current month)', () => {
    expect(parseView('range=custom&start=2026-02-30&end=2026-10-31', today)).toMatchObject({
      mode: 'custom',
      start: '',
      end: '2026-10-31',
    });
    expect(parseView('range=custom&start=2026-10-01&end=tomorrow', today)).toMatchObject({ start: '2026-10-01', end: '' });
    expect(parseView('range=custom&start=2026-1-01&end=2026-10-31', today)).toMatchObject({ start: '', end: '2026-10-31' });
  });

  it('ignores start and end outside custom mode', () => {
    expect(parseView('range=current&start=2026-10-01&end=2026-10-31', today)).toEqual({ ...DEFAULT_VIEW, mode: 'current' });
  });

  it('keeps a day inside the range and drops one outside it, or impossible', () => {
    expect(parseView('day=2026-10-06', today).day).toBe('2026-10-06');
    expect(parseView('day=2026-11-05', today).day).toBe('2026-11-05');
    expect(parseView('day=2026-10-05', today).day).toBeNull();
    expect(parseView('day=2026-11-06', today).day).toBeNull();
    expect(parseView('range=previous&day=2026-10-31', today).day).toBe('2026-10-31');
    expect(parseView('range=previous&day=2026-11-01', today).day).toBeNull();
    expect(parseView('range=current&day=2026-11-31', today).day).toBeNull();
    expect(parseView('range=current&day=2026-11-30', today).day).toBe('2026-11-30');
    expect(parseView('range=custom&start=2026-10-31&end=2026-10-01&day=2026-10-05', today).day).toBe('2026-10-05');
    // An incomplete custom range shows the current month.
    expect(parseView('range=custom&start=2026-10-01&day=2026-10-05', today).day).toBeNull();
    expect(parseView('range=custom&start=2026-10-01&day=2026-11-05', today).day).toBe('2026-11-05');
  });

  it('never throws, and what it reads is written back unchanged', () => {
    const value = fc.oneof(fc.string(), fc.constantFrom(...DATE_MODES, ...CHART_MODES, '2026-10-05', '2026-02-29', '2028-02-29', ''));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('range', 'start', 'end', 'day', 'chart', 'other'), value), { maxLength: 8 }),
        (pairs) => {
          const view = parseView(new URLSearchParams(pairs).toString(), today);
          expect(parseView(serialiseView(view), today)).toEqual(view);
        },
      ),
    );
  });
});

/** A calendar day, 'yyyy-MM-dd', of the years around now. */
const calendarDay = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

/** A custom range's end: none, any day, or a day at most 730 days either side of `start` (a range within the limits). */
const endOf = (start: string) =>
  fc.oneof(
    fc.constant(''),
    calendarDay,
    fc.integer({ min: -730, max: 730 }).map((days) => (start ? (DateTime.fromISO(start).plus({ days }).toISODate() ?? '') : '')),
  );

const views: fc.Arbitrary<DashboardView> = fc
  .record({
    mode: fc.constantFrom(...DATE_MODES),
    start: fc.oneof(fc.constant(''), calendarDay),
    dayOffset: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
    chart: fc.constantFrom(...CHART_MODES),
  })
  .chain((parts) => endOf(parts.start).map((end) => ({ ...parts, end })))
  // A custom range beyond the limits is no view: its link falls back to the default one.
  .filter(({ mode, start, end }) => mode !== 'custom' || !start || !end || isCustomRangeAllowed(start, end))
  .map(({ mode, start, end, dayOffset, chart }) => {
    const custom = mode === 'custom';
    const days = rangeDays({ mode, start: custom ? start : '', end: custom ? end : '' }, today);
    const first = DateTime.fromISO(days.first);
    const length = DateTime.fromISO(days.last).diff(first, 'days').days + 1;
    const day = dayOffset === null ? null : first.plus({ days: dayOffset % length }).toISODate();
    return { mode, start: custom ? start : '', end: custom ? end : '', day, chart };
  });

describe('a custom range beyond its limits (a link must not make the page build millions of days)', () => {
  it('falls back to the default view, keeping only the chart', () => {
    expect(parseView('range=custom&start=0001-01-01&end=9999-12-31', today)).toEqual(DEFAULT_VIEW);
    expect(parseView('range=custom&start=2024-01-01&end=2026-01-01&day=2025-01-01&chart=sales', today)).toEqual({
      ...DEFAULT_VIEW,
      chart: 'sales',
    });
    expect(parseView('range=custom&start=1999-12-31&end=2000-01-05', today)).toEqual(DEFAULT_VIEW);
  });

  it('is at most 731 days, counted by the calendar, either way round, from 2000-01-01 on', () => {
    expect(isCustomRangeAllowed('2024-01-01', '2025-12-31')).toBe(true); // 731 days with 2024-02-29
    expect(isCustomRangeAllowed('2025-12-31', '2024-01-01')).toBe(true);
    expect(isCustomRangeAllowed('2024-01-01', '2026-01-01')).toBe(false);
    expect(isCustomRangeAllowed('2025-01-01', '2027-01-01')).toBe(true); // 731 days without a leap day
    expect(isCustomRangeAllowed('2025-01-01', '2027-01-02')).toBe(false);
    expect(isCustomRangeAllowed('2000-01-01', '2000-01-01')).toBe(true);
    expect(isCustomRangeAllowed('1999-12-31', '2000-01-01')).toBe(false);
    expect(isCustomRangeAllowed('2026-02-30', '2026-03-01')).toBe(false);
    const link = parseView('range=custom&start=2024-01-01&end=2025-12-31', today);
    expect(link).toMatchObject({ mode: 'custom', start: '2024-01-01', end: '2025-12-31' });
  });

  it('shows the current month in the page, as an incomplete range does', () => {
    expect(rangeDays({ mode: 'custom', start: '0001-01-01', end: '9999-12-31' }, today)).toEqual({
      first: '2026-11-01',
      last: '2026-11-30',
    });
    const now = DateTime.fromISO(`${today}T12:00`);
    const range = dateRange('custom', { customStart: '0001-01-01', customEnd: '9999-12-31', now });
    expect([range.start.toISODate(), range.end.toISODate()]).toEqual(['2026-11-01', '2026-12-01']);
  });
});

describe('serialiseView', () => {
  it('writes the parts in a fixed order, and leaves the defaults out', () => {
    expect(serialiseView({ mode: 'custom', start: '2026-10-01', end: '2026-10-31', day: '2026-10-05', chart: 'sales' })).toBe(
      'range=custom&start=2026-10-01&end=2026-10-31&day=2026-10-05&chart=sales',
    );
    expect(serialiseView(DEFAULT_VIEW)).toBe('');
    expect(serialiseView({ ...DEFAULT_VIEW, mode: 'custom' })).toBe('range=custom');
    expect(viewHref('/affiliate/AFF-100', { ...DEFAULT_VIEW, chart: 'sales' })).toBe('/affiliate/AFF-100?chart=sales');
    expect(viewHref('/', DEFAULT_VIEW)).toBe('/');
  });

  it('is read back as the same view', () => {
    fc.assert(
      fc.property(views, (view) => {
        expect(parseView(serialiseView(view), today)).toEqual(view);
      }),
    );
  });
});

describe('rangeDays', () => {
  it('are the first and last days of the range dates.ts computes, for any today', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DATE_MODES),
        calendarDay,
        fc.oneof(fc.constant(''), calendarDay),
        fc.oneof(fc.constant(''), calendarDay),
        (mode, day, start, end) => {
          const now = DateTime.fromISO(`${day}T12:00:00`, { zone: 'Europe/Berlin' });
          const range = dateRange(mode, { now, customStart: start, customEnd: end });
          expect(rangeDays({ mode, start, end }, day)).toEqual({
            first: range.start.toISODate(),
            last: range.end.minus({ days: 1 }).toISODate(),
          });
        },
      ),
    );
  });
});

describe('isCalendarDay', () => {
  it('accepts days of the calendar only', () => {
    expect(['2026-10-05', '2028-02-29', '2000-02-29', '0001-01-01'].every(isCalendarDay)).toBe(true);
    expect(
      ['2026-02-29', '1900-02-29', '2026-13-01', '2026-00-10', '2026-04-31', '0000-01-01', '2026-10-5', ' 2026-10-05', ''].some(
        isCalendarDay,
      ),
    ).toBe(false);
    expect(isCalendarDay(null)).toBe(false);
  });
});
