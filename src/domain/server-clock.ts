// The server's clock as this browser knows it. A token's exp and iat are the server's time, and a
// device's clock may be minutes off it: compared with the device clock, a fast one sees every
// token expire on arrival, and a slow one keeps tokens the server has long expired. Every decision
// that compares a token's exp with the present reads `serverClock.now()` instead: the device clock
// plus the offset between the newest token's iat and the moment it arrived (none for a token
// without iat). The session learns the offset as tokens arrive and keeps it in localStorage under
// a key of its own, beside the token record.
import { jwtDecode } from 'jwt-decode';

/** localStorage: the offset of the server's clock from this device's, in ms ('{"offsetMs":-600000}'). */
export const SERVER_CLOCK_KEY = 'auth_clock';
/** A token is refreshed 60 seconds before it expires. */
export const REFRESH_LEAD_MS = 60_000;

/** A token's exp and iat claims (seconds since the epoch), read without verifying it; null where missing. */
export interface TokenTimes {
  exp: number | null;
  iat: number | null;
}

const NO_TIMES: TokenTimes = { exp: null, iat: null };
const secondsOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export function tokenTimes(jwt: string): TokenTimes {
  try {
    const { exp, iat } = jwtDecode<{ exp?: unknown; iat?: unknown }>(jwt);
    return { exp: secondsOf(exp), iat: secondsOf(iat) };
  } catch {
    return NO_TIMES;
  }
}

/** When an access token is due for its refresh, in ms on the server's clock: 60 s before its exp; 0 without one. */
export function refreshDueAt(access: string): number {
  const { exp } = tokenTimes(access);
  return exp === null ? 0 : exp * 1000 - REFRESH_LEAD_MS;
}

/** The offset kept under SERVER_CLOCK_KEY; 0 (the device clock) for anything else. */
export function parseClockOffset(raw: string | null): number {
  try {
    const parsed: unknown = raw === null ? null : JSON.parse(raw);
    const offset = typeof parsed === 'object' && parsed !== null && 'offsetMs' in parsed ? parsed.offsetMs : 0;
    return typeof offset === 'number' && Number.isFinite(offset) ? offset : 0;
  } catch {
    return 0;
  }
}

export const serialiseClockOffset = (offsetMs: number): string => JSON.stringify({ offsetMs });

let offsetMs = 0;

/** This tab's knowledge of the server's clock. */
export const serverClock = {
  /** The present on the server's clock, in ms since the epoch. */
  now: (): number => Date.now() + offsetMs,
  /** The server's clock less the device's, in ms. */
  offset: (): number => offsetMs,
  /** A token has just arrived from the server (at `arrivedAt`, device ms): its iat was the server's now; none, the device's clock. */
  learn(access: string, arrivedAt: number = Date.now()): void {
    const { iat } = tokenTimes(access);
    offsetMs = iat === null ? 0 : iat * 1000 - arrivedAt;
  },
  /** The offset another tab, or this browser before a reload, learnt. */
  set(offset: number): void {
    offsetMs = Number.isFinite(offset) ? offset : 0;
  },
};
