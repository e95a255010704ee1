import BigNumber from 'bignumber.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commission, formatMoney, money, roundHalfEven, SaleReader, toMicro } from './money.ts';

/** Decimal strings as the API sends them: optional sign, up to 13 integer digits, 0 to 9 decimals. */
const decimalString = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 13n }), fc.integer({ min: 0, max: 9 }), fc.bigInt({ min: 0n, max: 10n ** 9n - 1n }))
  .map(([negative, whole, places, fraction]) => {
    const digits = fraction.toString().padStart(9, '0').slice(0, places);
    return `${negative ? '-' : ''}${whole}${places > 0 ? `.${digits}` : ''}`;
  });
const smallDecimal = fc
  .tuple(fc.boolean(), fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 99 }))
  .map(([negative, whole, cents]) => `${negative ? '-' : ''}${whole}.${String(cents).padStart(2, '0')}`);

const bigMicro = (text: string) => new BigNumber(text).decimalPlaces(6, BigNumber.ROUND_HALF_EVEN).shiftedBy(6);

describe('toMicro', () => {
  it('reads decimal strings into integer millionths; a missing value is 0', () => {
    expect(toMicro('12')).toBe(12_000_000);
    expect(toMicro('12.5')).toBe(12_500_000);
    expect(toMicro('12.500000')).toBe(12_500_000);
    expect(toMicro('-3.000001')).toBe(-3_000_001);
    expect(toMicro('-0.00')).toBe(0);
    expect(Object.is(toMicro('-0.00'), -0)).toBe(false);
    expect(toMicro(null)).toBe(0);
    expect(toMicro(undefined)).toBe(0);
  });

  it('"sums carried at 6-digit precision": more decimals are taken at 6, half to even', () => {
    expect(toMicro('0.0000005')).toBe(0);
    expect(toMicro('0.0000015')).toBe(2);
    expect(toMicro('0.00000150001')).toBe(2);
    expect(toMicro('-0.0000025')).toBe(-2);
  });

  it('rejects what is not a decimal string', () => {
    for (const text of ['', '-', '1.', '.5', '1e3', '0x10', ' 1', '1,5', '+1', 'NaN']) {
      expect(() => toMicro(text), text).toThrow(RangeError);
    }
  });

  it('is Infinity beyond 2^53 micro-units, so that callers can tell', () => {
    expect(toMicro('10000000000000')).toBe(Infinity);
    expect(toMicro('-10000000000000')).toBe(-Infinity);
  });

  it('equals bignumber.js at 6 decimals, half to even (property)', () => {
    fc.assert(
      fc.property(decimalString, (text) => {
        const expected = bigMicro(text);
        const micro = toMicro(text);
        if (expected.abs().gt(Number.MAX_SAFE_INTEGER)) expect(Math.abs(micro)).toBe(Infinity);
        else expect(micro).toBe(expected.toNumber() || 0);
      }),
    );
  });
});

describe('commission', () => {
  it('"commission = amount * percent / 100, 6 decimals"', () => {
    expect(commission('123.45', '12.50')).toBe(15_431_250);
    expect(commission('1000.00', '10.00')).toBe(100_000_000);
    expect(commission('-40.00', '7.5')).toBe(-3_000_000);
    expect(commission('0.00', '10')).toBe(0);
  });

  it('"a missing amount is 0"; a missing percent is 0', () => {
    expect(commission(null, '10.00')).toBe(0);
    expect(commission(undefined, '10.00')).toBe(0);
    expect(commission('50.00', null)).toBe(0);
    expect(commission('50.00', undefined)).toBe(0);
  });

  it('rounds the 6th decimal half to even', () => {
    expect(commission('0.01', '0.0005')).toBe(0); // 0.00000005 -> 0
    expect(commission('1.25', '0.0001')).toBe(1); // 0.00000125 -> 0.000001
    expect(commission('1.5', '0.0001')).toBe(2); // 0.0000015 -> 0.000002 (half: to even)
    expect(commission('2.5', '0.0001')).toBe(2); // 0.0000025 -> 0.000002 (half: to even)
    expect(commission('3.5', '0.0001')).toBe(4); // 0.0000035 -> 0.000004 (half: to even)
    expect(commission('-2.5', '0.0001')).toBe(-2);
    expect(commission('-3.5', '0.0001')).toBe(-4);
    expect(commission('9.99', '3.125')).toBe(312_188); // 0.31218750 -> 0.312188
  });

  it('stays exact where amount times percent exceeds 2^53 (BigInt path)', () => {
    expect(commission('987654321.123456', '12.345678')).toBe(
      new BigNumber('987654321.123456')
        .times('12.345678')
        .shiftedBy(-2)
        .decimalPlaces(6, BigNumber.ROUND_HALF_EVEN)
        .shiftedBy(6)
        .toNumber(),
    );
  });

  it('equals amount * percent / 100 in bignumber.js at 6 decimals, half to even (property)', () => {
    fc.assert(
      fc.property(fc.oneof(smallDecimal, decimalString), fc.oneof(smallDecimal, decimalString), (amount, percent) => {
        const expected = new BigNumber(amount).times(percent).shiftedBy(-2).decimalPlaces(6, BigNumber.ROUND_HALF_EVEN).shiftedBy(6);
        const micro = commission(amount, percent);
        if (expected.abs().gt(Number.MAX_SAFE_INTEGER)) expect(Math.abs(micro)).toBe(Infinity);
        else expect(micro).toBe(expected.toNumber() || 0);
      }),
    );
  });

  it('SaleReader reads the same amount and commission in one go (property)', () => {
    const reader = new SaleReader();
    const maybe = (arbitrary: fc.Arbitrary<string>) => fc.option(arbitrary, { nil: undefined, freq: 5 });
    fc.assert(
      fc.property(maybe(fc.oneof(smallDecimal, decimalString)), maybe(fc.oneof(smallDecimal, decimalString)), (amount, percent) => {
        reader.read(amount, percent);
        expect(reader.amount).toBe(toMicro(amount));
        expect(reader.commission).toBe(commission(amount, percent));
      }),
    );
  });
});

describe('roundHalfEven', () => {
  it('"Totals rounded to 2 decimals, half-to-even at exact halves"', () => {
    expect(roundHalfEven(125_000)).toBe('0.12');
    expect(roundHalfEven(135_000)).toBe('0.14');
    expect(roundHalfEven(-125_000)).toBe('-0.12');
    expect(roundHalfEven(-135_000)).toBe('-0.14');
    expect(roundHalfEven(125_001)).toBe('0.13');
    expect(roundHalfEven(124_999)).toBe('0.12');
    expect(roundHalfEven(1_234_565_000)).toBe('1234.56');
    expect(roundHalfEven(1_234_575_000)).toBe('1234.58');
    expect(roundHalfEven(5_000)).toBe('0.00');
    expect(roundHalfEven(-5_000)).toBe('0.00');
    expect(roundHalfEven(-15_000)).toBe('-0.02');
    expect(roundHalfEven(0)).toBe('0.00');
    expect(roundHalfEven(7_000_000)).toBe('7.00');
  });

  it('refuses what is not an exact micro-unit amount', () => {
    expect(() => roundHalfEven(0.5)).toThrow(RangeError);
    expect(() => roundHalfEven(Infinity)).toThrow(RangeError);
  });

  it('equals bignumber.js toFixed(2, ROUND_HALF_EVEN), exact halves included (property)', () => {
    const halves = fc.integer({ min: -9_000_000_000, max: 9_000_000_000 }).map((cents) => cents * 10_000 + 5_000);
    const anyMicro = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
    fc.assert(
      fc.property(fc.oneof(halves, anyMicro), (micro) => {
        const expected = new BigNumber(micro).shiftedBy(-6).toFixed(2, BigNumber.ROUND_HALF_EVEN);
        expect(roundHalfEven(micro)).toBe(expected === '-0.00' ? '0.00' : expected);
      }),
    );
  });
});

describe('formatMoney', () => {
  it('lays out the already rounded value as currency, 2 decimals, without rounding again', () => {
    expect(formatMoney(money(1_234_565_000), 'USD', 'en-US')).toBe('$1,234.56');
    expect(formatMoney('0.00', 'USD', 'en-US')).toBe('$0.00');
    expect(formatMoney('-12.30', 'EUR', 'en-US')).toBe('-€12.30');
    expect(formatMoney('90071992547409.91', 'USD', 'en-US')).toBe('$90,071,992,547,409.91');
    expect(formatMoney('1234.5', 'EUR', 'de-DE')).toBe('1.234,50\u00a0€');
  });

  it('money() pairs the exact micro-units with their display string', () => {
    expect(money(-135_000)).toEqual({ micro: -135_000, display: '-0.14' });
  });
});
