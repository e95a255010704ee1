import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  chartTitle,
  dateRange,
  DayIndex,
  dayKey,
  dayLabel,
  daySlots,
  parseDay,
  parseInstant,
  tableDate,
  toQuery,
  type DateRange,
} from './dates.ts';

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Auckland', 'UTC'];
const zone = 'Europe/Berlin';
const now = DateTime.fromISO('2026-11-05T15:30:00', { zone });
const iso = (range: DateRange) => [range.start.toISO(), range.end.toISO()];

describe('dateRange (decisions.md section 3, with today = local start of the current day)', () => {
  it('"last30: start = today - 30 days, end = today + 1 day"', () => {
    expect(iso(dateRange('last30', { now, zone }))).toEqual(['2026-10-06T00:00:00.000+02:00', '2026-11-06T00:00:00.000+01:00']);
  });

  it('"current: start = first day of this month, end = first day of next month"', () => {
    expect(iso(dateRange('current', { now, zone }))).toEqual(['2026-11-01T00:00:00.000+01:00', '2026-12-01T00:00:00.000+01:00']);
  });

  it('"previous: start = first day of last month, end = first day of this month"', () => {
    expect(iso(dateRange('previous', { now, zone }))).toEqual(['2026-10-01T00:00:00.000+02:00', '2026-11-01T00:00:00.000+01:00']);
    const january = DateTime.fromISO('2027-01-15T08:00:00', { zone });
    expect(iso(dateRange('previous', { now: january, zone }))).toEqual(['2026-12-01T00:00:00.000+01:00', '2027-01-01T00:00:00.000+01:00']);
  });

  it('"custom: start = the chosen start day, end = the chosen end day + 1 day"', () => {
    const range = dateRange('custom', { now, zone, customStart: '2026-10-20', customEnd: '2026-10-25' });
    expect(iso(range)).toEqual(['2026-10-20T00:00:00.000+02:00', '2026-10-26T00:00:00.000+01:00']);
  });

  it('"custom: while either is missing the range is current"', () => {
    const current = iso(dateRange('current', { now, zone }));
    expect(iso(dateRange('custom', { now, zone, customStart: '2026-10-20', customEnd: null }))).toEqual(current);
    expect(iso(dateRange('custom', { now, zone, customStart: '', customEnd: '2026-10-25' }))).toEqual(current);
    expect(iso(dateRange('custom', { now, zone, customStart: 'not a day', customEnd: '2026-10-25' }))).toEqual(current);
    expect(iso(dateRange('custom', { now, zone }))).toEqual(current);
  });

  it('reads a custom end before its start as the same days the other way round', () => {
    const range = dateRange('custom', { now, zone, customStart: '2026-10-25', customEnd: '2026-10-20' });
    expect(iso(range)).toEqual(['2026-10-20T00:00:00.000+02:00', '2026-10-26T00:00:00.000+01:00']);
  });

  it('takes today in the zone asked for, whatever the zone of now', () => {
    const late = DateTime.fromISO('2026-11-05T23:30:00Z');
    expect(dateRange('last30', { now: late, zone: 'Pacific/Auckland' }).end.toISODate()).toBe('2026-11-07');
    expect(dateRange('last30', { now: late, zone: 'America/New_York' }).end.toISODate()).toBe('2026-11-06');
  });
});

describe('toQuery', () => {
  it('"ISO = DateTime.toISO() of a local day start (offset included)"', () => {
    expect(toQuery(dateRange('current', { now, zone }))).toEqual({
      start: '2026-11-01T00:00:00.000+01:00',
      end: '2026-12-01T00:00:00.000+01:00',
      zone,
      locale: now.locale,
    });
  });

  it.each(['UTC', 'Etc/UTC'])('writes the offset of a browser in %s as a local DateTime does (+00:00, not Z)', (systemZone) => {
    const before = process.env.TZ;
    process.env.TZ = systemZone;
    try {
      const moment = DateTime.fromISO('2026-11-23T12:00:00Z');
      const query = toQuery(dateRange('current', { now: DateTime.fromMillis(moment.toMillis()) }));
      expect(query).toMatchObject({ start: DateTime.local(2026, 11, 1).toISO(), end: DateTime.local(2026, 12, 1).toISO() });
      expect(query.start).toBe('2026-11-01T00:00:00.000+00:00');
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
});

describe('daySlots', () => {
  const hours = (day: DateTime, next: DateTime) => next.diff(day, 'hours').hours;

  it('"every day of the range has a slot": one per calendar day, 23 and 25 hours long on DST changes', () => {
    const october = dateRange('previous', { now, zone });
    const slots = daySlots(october);
    expect(slots).toHaveLength(31);
    expect(slots.map((day) => day.toISODate())).toContain('2026-10-25');
    expect(hours(slots[24]!, slots[25]!)).toBe(25);
    const march = daySlots({ start: parseDay('2026-03-28', zone)!, end: parseDay('2026-03-31', zone)! });
    expect(march.map((day) => day.toISO())).toEqual([
      '2026-03-28T00:00:00.000+01:00',
      '2026-03-29T00:00:00.000+01:00',
      '2026-03-30T00:00:00.000+02:00',
    ]);
    expect(hours(march[1]!, march[2]!)).toBe(23);
  });

  it("handles Lord Howe's 30-minute DST change (23.5- and 24.5-hour days)", () => {
    const lordHowe = 'Australia/Lord_Howe';
    const october = daySlots({ start: parseDay('2026-10-03', lordHowe)!, end: parseDay('2026-10-06', lordHowe)! });
    expect(october.map((day) => day.toISODate())).toEqual(['2026-10-03', '2026-10-04', '2026-10-05']);
    expect(hours(october[1]!, october[2]!)).toBe(23.5);
    const april = daySlots({ start: parseDay('2026-04-05', lordHowe)!, end: parseDay('2026-04-07', lordHowe)! });
    expect(hours(april[0]!, april[1]!)).toBe(24.5);
  });

  it('gives as many slots as calendar days, each the local start of the next calendar day, in every zone (property)', () => {
    const startDay = fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true });
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), startDay, fc.integer({ min: 1, max: 70 }), (zoneName, date, length) => {
        const first = date.toISOString().slice(0, 10);
        const lastExclusive = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + length))
          .toISOString()
          .slice(0, 10);
        const range = { start: parseDay(first, zoneName)!, end: parseDay(lastExclusive, zoneName)! };
        const slots = daySlots(range);
        expect(slots).toHaveLength(length);
        slots.forEach((slot, index) => {
          const calendarDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + index));
          expect(slot.toISODate()).toBe(calendarDay.toISOString().slice(0, 10));
          expect(slot.equals(slot.startOf('day'))).toBe(true);
          expect(slot.zoneName).toBe(zoneName);
        });
      }),
    );
  });
});

describe('dayKey and DayIndex: "dates are grouped by local-day start"', () => {
  it('puts a sale in the local day of its zone', () => {
    expect(dayKey('2026-11-05T23:30:00Z', 'Europe/Berlin')).toBe('2026-11-06');
    expect(dayKey('2026-11-05T23:30:00Z', 'America/New_York')).toBe('2026-11-05');
    expect(dayKey('2026-11-06T00:30:00.123456+01:00', 'Europe/Berlin')).toBe('2026-11-06');
    expect(() => dayKey('yesterday', 'UTC')).toThrow(RangeError);
  });

  it('finds the slot of an instant, and none outside the range', () => {
    const index = new DayIndex(dateRange('previous', { now, zone }));
    expect(index.length).toBe(31);
    expect(index.slotOfIso('2026-10-01T00:00:00+02:00')).toBe(0);
    expect(index.slotOfIso('2026-09-30T23:59:59.999+02:00')).toBe(-1);
    expect(index.slotOfIso('2026-10-25T23:59:59.999+01:00')).toBe(24);
    expect(index.slotOfIso('2026-10-26T00:00:00+01:00')).toBe(25);
    expect(index.slotOfIso('2026-10-31T22:59:59.999Z')).toBe(30);
    expect(index.slotOfIso('2026-10-31T23:00:00Z')).toBe(-1);
    expect(index.slotOf(Number.NaN)).toBe(-1);
  });

  it('never loses or duplicates a sale: each instant of the range is in exactly the slot of its luxon local day (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.constantFrom('2026-03-20', '2026-04-01', '2026-09-20', '2026-10-20', '2026-10-30'),
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.double({ min: -2, max: 42, noNaN: true }), { minLength: 1, maxLength: 40 }),
        (zoneName, first, length, offsets) => {
          const start = parseDay(first, zoneName)!;
          const index = new DayIndex({ start, end: start.plus({ days: length }).startOf('day') });
          for (const offset of offsets) {
            const ms = Math.floor(start.toMillis() + offset * 86_400_000);
            const key = DateTime.fromMillis(ms, { zone: zoneName }).toISODate();
            expect(index.slotOf(ms)).toBe(index.keys.indexOf(key!));
          }
        },
      ),
    );
  });
});

describe('parseInstant', () => {
  it('reads the API layout: fractions of any length (truncated to ms), Z or an offset', () => {
    expect(parseInstant('2026-11-05T10:00:00Z')).toBe(Date.UTC(2026, 10, 5, 10));
    expect(parseInstant('2026-11-05T10:00:00.5Z')).toBe(Date.UTC(2026, 10, 5, 10, 0, 0, 500));
    expect(parseInstant('2026-11-05T10:00:00.123999Z')).toBe(Date.UTC(2026, 10, 5, 10, 0, 0, 123));
    expect(parseInstant('2026-11-05T10:00:00+05:45')).toBe(Date.UTC(2026, 10, 5, 4, 15));
    expect(parseInstant('2024-02-29T23:59:59.999-10:00')).toBe(Date.UTC(2024, 2, 1, 9, 59, 59, 999));
  });

  it('leaves other ISO layouts to luxon and rejects what is no date-time', () => {
    expect(parseInstant('2026-11-05T10:00Z')).toBe(Date.UTC(2026, 10, 5, 10));
    for (const text of ['', 'yesterday', '2026-02-30T10:00:00Z', '2026-11-05T24:00:01Z', '2026-13-05T10:00:00Z']) {
      expect(() => parseInstant(text), text).toThrow(RangeError);
    }
  });

  it('equals luxon for random instants, offsets and fraction lengths (property)', () => {
    const offsets = ['Z', '+00:00', '+01:00', '-05:00', '+05:45', '+10:30', '-09:30', '+14:00'];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1970, 0, 2), max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom(...offsets),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 0, max: 9999 }),
        (ms, offset, places, extra) => {
          const minutes =
            offset === 'Z' ? 0 : (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4)));
          const local = new Date(ms + minutes * 60_000).toISOString().slice(0, 23);
          const fraction = (local.slice(20) + String(extra).padStart(4, '0')).slice(0, places);
          const text = `${local.slice(0, 19)}${places ? `.${fraction}` : ''}${offset}`;
          expect(parseInstant(text)).toBe(DateTime.fromISO(text).toMillis());
        },
      ),
    );
  });
});

describe('labels', () => {
  const day = parseDay('2026-11-05', zone)!;

  it('"X-axis labels are month/day": M/d', () => {
    expect(dayLabel(day)).toBe('11/5');
  });

  it('"Chart title shows the month and year of the start date"', () => {
    expect(chartTitle(dateRange('last30', { now, zone }))).toBe('October 2026');
    expect(chartTitle(dateRange('current', { now, zone }))).toBe('November 2026');
  });

  it('table headings and the Date column read like "Nov 5, 2026"', () => {
    expect(tableDate(day)).toBe('Nov 5, 2026');
  });

  it("dates of titles, headings and tables follow the locale of the range's days (the browser's, as amounts); the axis keeps M/d", () => {
    const german = day.setLocale('de-DE');
    expect(tableDate(german)).toBe('5. Nov. 2026');
    expect(tableDate(day.setLocale('fr-FR'))).toBe('5 nov. 2026');
    expect(dayLabel(german)).toBe('11/5');
    const december = dateRange('custom', { now, zone, customStart: '2026-12-01', customEnd: '2026-12-31' });
    expect(chartTitle({ start: december.start.setLocale('de-DE'), end: december.end })).toBe('Dezember 2026');
  });

  it('parseDay reads yyyy-MM-dd only', () => {
    expect(parseDay('2026-11-05', zone)?.toISO()).toBe('2026-11-05T00:00:00.000+01:00');
    expect(parseDay('2026-11-05T10:00', zone)).toBeNull();
    expect(parseDay('2026-02-30', zone)).toBeNull();
    expect(parseDay(null, zone)).toBeNull();
  });
});
