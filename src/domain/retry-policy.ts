// How a call that could not be answered is tried again: 3 retries, waiting 1000 ms doubled per
// attempt, at most 30000 ms. Server data (SWR) and the token refresh follow the same policy. And
// how long server data is kept: fresh for 5 minutes, dropped 5 minutes after its last use.
export const STALE_TIME_MS = 5 * 60_000;
export const GC_TIME_MS = 5 * 60_000;
export const MAX_RETRIES = 3;
export const RETRY_BASE_MS = 1000;
export const RETRY_MAX_MS = 30_000;

/** The wait before retry number `attempt` (1, 2, 3): 1000 ms doubled per attempt, at most 30000 ms. */
export function retryDelay(attempt: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** (attempt - 1), RETRY_MAX_MS);
}

/** The first attempt whose wait is the longest: counting further changes nothing. */
export const LONGEST_WAIT_ATTEMPT = Math.ceil(Math.log2(RETRY_MAX_MS / RETRY_BASE_MS)) + 1;
