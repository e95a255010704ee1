import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { decimalString, isoDate, isoDateTime, paymentEventSchema } from './schemas.ts';

describe('the string formats of the API', () => {
  it('takes date-times with an offset or Z, as Django REST Framework renders them', () => {
    for (const value of ['2026-11-05T10:15:00Z', '2026-11-05T10:15:00.123456+01:00', '2024-02-29T23:59:59-05:30']) {
      expect(isoDateTime.safeParse(value).success, value).toBe(true);
    }
    for (const value of [
      '2026-11-05',
      '2026-11-05T10:15:00',
      '2026-13-05T10:15:00Z',
      '2023-02-29T10:15:00Z',
      '2026-11-05T24:00:00Z',
      ' 2026-11-05T10:15:00Z',
    ]) {
      expect(isoDateTime.safeParse(value).success, value).toBe(false);
    }
  });

  it('takes calendar dates, leap days included', () => {
    expect(isoDate.safeParse('2024-02-29').success).toBe(true);
    expect(isoDate.safeParse('2023-02-29').success).toBe(false);
    expect(isoDate.safeParse('2026-11-5').success).toBe(false);
  });

  it("agrees with zod's own ISO formats, day by day and time by time", () => {
    const zodDateTime = z.iso.datetime({ offset: true });
    const zodDate = z.iso.date();
    const pad = (n: number) => String(n).padStart(2, '0');
    for (const year of ['1900', '2000', '2023', '2024', '2100']) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const date = `${year}-${pad(month)}-${pad(day)}`;
          expect(isoDate.safeParse(date).success, date).toBe(zodDate.safeParse(date).success);
        }
      }
    }
    for (const time of [
      '00:00:00',
      '23:59:59',
      '24:00:00',
      '12:60:00',
      '12:00:60',
      '12:00',
      '12:00:00.5',
      '12:00:00.',
      '07:05:09.123456',
    ]) {
      for (const offset of ['Z', '+01:00', '-05:30', '+24:00', '+01', '', 'z']) {
        const value = `2024-02-29T${time}${offset}`;
        expect(isoDateTime.safeParse(value).success, value).toBe(zodDateTime.safeParse(value).success);
      }
    }
  });

  it('takes decimal strings, and nothing else as an amount', () => {
    for (const value of ['12', '12.5', '-3.000001']) expect(decimalString.safeParse(value).success, value).toBe(true);
    for (const value of ['1e3', '12.', '.5', '', 12]) expect(decimalString.safeParse(value).success, String(value)).toBe(false);
  });

  it('says which field of a response is wrong, and how', () => {
    const event = { id: 1, created: 'yesterday', amount: '10', order: {} };
    const parsed = paymentEventSchema.safeParse(event);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['created'], message: 'Expected an ISO 8601 date-time' });
  });
});
