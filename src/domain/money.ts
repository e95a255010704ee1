// Exact money arithmetic for the dashboard (see docs/product-rules.md, Dashboard figures).
// Money is shown with 2 decimals; sums and commissions are carried with 6.
//
// Amounts travel as integer micro-units (millionths) in plain JS numbers: sums of integers below
// 2^53 are exact, and this is several times faster than one BigNumber per operation. Rounding:
// - a value or product with more than 6 decimals is taken at 6 decimals, half to even
//   (BigNumber.ROUND_HALF_EVEN, the portal's one rounding mode; `commission` below);
// - display values are rounded to 2 decimals, half to even at exact halves (`roundHalfEven`);
//   zero is always '0.00', never '-0.00'.
// Anything the fast path cannot hold exactly (more than 15 digits, more than 6 significant
// decimals) takes an exact BigInt path; a result beyond 2^53 micro-units comes back as Infinity
// so that callers can tell (deriveDashboard then falls back to its bignumber.js reference).

/** Integer millionths of the currency unit. */
export type Micro = number;

/** A money value of the dashboard: exact micro-units and the display string rounded half to even. */
export interface Money {
  micro: Micro;
  /** 2 decimals, half to even at exact halves: '1234.57', '-0.12', '0.00'. */
  display: string;
}

const MICRO_SCALE = 6;
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
const MAX_DIGITS = 15;
const DECIMAL = /^-?\d+(\.\d+)?$/;

// The last string read by readDecimal: its digits without trailing fraction zeros and their scale
// (so '12.50' is 125 at scale 1). Module scratch instead of an object keeps the hot path free of
// allocations.
let lastDigits = 0;
let lastScale = 0;

/**
 * Reads a decimal string ('12', '-3.5', '0.000001') into micro-units. Returns NaN when the fast
 * path cannot represent it exactly (too many digits or significant decimals); throws a RangeError
 * when it is not a decimal string at all.
 */
function readDecimal(text: string): number {
  const length = text.length;
  let index = 0;
  let negative = false;
  if (length > 0 && text.charCodeAt(0) === 45 /* - */) {
    negative = true;
    index = 1;
  }
  let digits = 0;
  let count = 0;
  let scale = -1; // -1 while in the integer part
  let significant = 0;
  let significantScale = 0;
  for (; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === 46 /* . */ && scale === -1 && count > 0) {
      scale = 0;
      continue;
    }
    const digit = code - 48;
    if (digit < 0 || digit > 9) throw notADecimal(text);
    digits = digits * 10 + digit;
    count++;
    if (scale >= 0) scale++;
    if (digit !== 0 || scale <= 0) {
      significant = digits;
      significantScale = scale < 0 ? 0 : scale;
    }
  }
  if (count === 0 || scale === 0) throw notADecimal(text);
  if (count > MAX_DIGITS || significantScale > MICRO_SCALE) return Number.NaN;
  // Trailing fraction zeros were dropped: significant * 10^(scale - significantScale) === digits.
  lastDigits = negative ? -significant : significant;
  lastScale = significantScale;
  const micro = lastDigits * POW10[MICRO_SCALE - significantScale]!;
  return Math.abs(micro) <= Number.MAX_SAFE_INTEGER ? micro : Number.NaN;
}

function notADecimal(text: string): RangeError {
  return new RangeError(`Not a decimal string: ${JSON.stringify(text)}`);
}

/**
 * `numerator / divisor` rounded half to even, for safe integers and a positive power of ten.
 * The remainder is exact, so is the quotient.
 */
function divideHalfEven(numerator: number, divisor: number): number {
  const remainder = numerator % divisor;
  let quotient = (numerator - remainder) / divisor;
  const twice = 2 * Math.abs(remainder);
  if (twice > divisor || (twice === divisor && quotient % 2 !== 0)) quotient += numerator < 0 ? -1 : 1;
  return quotient === 0 ? 0 : quotient;
}

// --- The exact slow path (BigInt) ---------------------------------------------------------

function bigDecimal(text: string): { digits: bigint; scale: number } {
  if (!DECIMAL.test(text)) throw notADecimal(text);
  const dot = text.indexOf('.');
  return dot === -1
    ? { digits: BigInt(text), scale: 0 }
    : { digits: BigInt(text.slice(0, dot) + text.slice(dot + 1)), scale: text.length - dot - 1 };
}

/** digits * 10^-scale in micro-units, half to even; Infinity (signed) beyond 2^53. */
function bigToMicro(digits: bigint, scale: number): Micro {
  let micro: bigint;
  if (scale <= MICRO_SCALE) {
    micro = digits * 10n ** BigInt(MICRO_SCALE - scale);
  } else {
    const divisor = 10n ** BigInt(scale - MICRO_SCALE);
    micro = digits / divisor;
    const remainder = digits % divisor;
    const twice = 2n * (remainder < 0n ? -remainder : remainder);
    if (twice > divisor || (twice === divisor && micro % 2n !== 0n)) micro += digits < 0n ? -1n : 1n;
  }
  const magnitude = micro < 0n ? -micro : micro;
  if (magnitude > BigInt(Number.MAX_SAFE_INTEGER)) return micro < 0n ? -Infinity : Infinity;
  return micro === 0n ? 0 : Number(micro);
}

// --- Public rules -------------------------------------------------------------------------

/** A decimal string in micro-units, taken at 6 decimals half to even; a missing value is 0. */
export function toMicro(text: string | null | undefined): Micro {
  if (text === null || text === undefined) return 0;
  const micro = readDecimal(text);
  if (!Number.isNaN(micro)) return micro === 0 ? 0 : micro;
  const { digits, scale } = bigDecimal(text);
  return bigToMicro(digits, scale);
}

/**
 * "commission = amount * percent / 100, 6 decimals", in micro-units,
 * rounded half to even at the 6th decimal. A missing amount or percent is 0. The same rule gives
 * a connection fee from `amount` and `connection_fee_pc`.
 */
export function commission(amount: string | null | undefined, percent: string | null | undefined): Micro {
  if (amount === null || amount === undefined || percent === null || percent === undefined) return 0;
  const fast = fastCommission(amount, percent);
  if (!Number.isNaN(fast)) return fast;
  const a = bigDecimal(amount);
  const p = bigDecimal(percent);
  return bigToMicro(a.digits * p.digits, a.scale + p.scale + 2);
}

/**
 * Reads a sale's amount and its commission (`commission(amount, percent)`) in one go, parsing the
 * amount once: the hot loop of deriveDashboard. Reuse one reader; after `read`, `amount` and
 * `commission` hold the micro-units (the same values toMicro and commission give).
 */
export class SaleReader {
  amount: Micro = 0;
  commission: Micro = 0;

  read(amount: string | null | undefined, percent: string | null | undefined): void {
    if (amount === null || amount === undefined) {
      this.amount = 0;
      this.commission = 0;
      return;
    }
    const micro = readDecimal(amount);
    if (Number.isNaN(micro)) {
      this.amount = toMicro(amount);
      this.commission = commission(amount, percent);
      return;
    }
    this.amount = micro === 0 ? 0 : micro;
    if (percent === null || percent === undefined) {
      this.commission = 0;
      return;
    }
    const fast = commissionOfLast(percent);
    this.commission = Number.isNaN(fast) ? commission(amount, percent) : fast;
  }
}

function fastCommission(amount: string, percent: string): number {
  if (Number.isNaN(readDecimal(amount))) return Number.NaN;
  return commissionOfLast(percent);
}

/** The commission of the amount readDecimal read last, or NaN when the fast path cannot hold it. */
function commissionOfLast(percent: string): number {
  const amountDigits = lastDigits;
  const amountScale = lastScale;
  if (Number.isNaN(readDecimal(percent))) return Number.NaN;
  const product = amountDigits * lastDigits;
  if (Math.abs(product) > Number.MAX_SAFE_INTEGER) return Number.NaN;
  // amount * percent / 100 has scale amountScale + lastScale + 2, at most 14.
  const scale = amountScale + lastScale + 2;
  if (scale > MICRO_SCALE) return divideHalfEven(product, POW10[scale - MICRO_SCALE]!);
  const micro = product * POW10[MICRO_SCALE - scale]!;
  if (Math.abs(micro) > Number.MAX_SAFE_INTEGER) return Number.NaN;
  return micro === 0 ? 0 : micro;
}

/**
 * Totals are rounded to 2 decimals, half to even at exact halves: micro-units to the 2-decimal
 * display string. 0.125 -> '0.12', 0.135 -> '0.14', -0.125 -> '-0.12'.
 */
export function roundHalfEven(micro: Micro): string {
  if (!Number.isSafeInteger(micro)) throw new RangeError(`Not an exact micro-unit amount: ${micro}`);
  const cents = divideHalfEven(micro, 1e4);
  if (cents === 0) return '0.00';
  const magnitude = Math.abs(cents);
  const fraction = magnitude % 100;
  return `${cents < 0 ? '-' : ''}${(magnitude - fraction) / 100}.${fraction < 10 ? '0' : ''}${fraction}`;
}

/** A Money value from micro-units. */
export function money(micro: Micro): Money {
  return { micro, display: roundHalfEven(micro) };
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * A money value as currency text, e.g. '$1,234.57', in the configured currency (VITE_CURRENCY)
 * with 2 decimals. The value is already rounded half to even; Intl only lays it out (it receives
 * the exact decimal string, so it never rounds).
 */
export function formatMoney(value: Money | string, currency: string, locale?: string): string {
  const display = typeof value === 'string' ? value : value.display;
  if (!DECIMAL.test(display)) throw notADecimal(display);
  const key = `${locale ?? ''}|${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(key, formatter);
  }
  return formatter.format(display as Intl.StringNumericLiteral);
}
