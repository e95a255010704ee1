// How long 'Resend Email' waits after an e-mailed code is sent (see docs/product-rules.md,
// Sign-in): 30 seconds, or as long as the server says when it throttled the request.

export const RESEND_WAIT_SECONDS = 30;

const THROTTLED = /^Request was throttled\. Expected available in (\d+) seconds?\.$/;

/** The seconds a throttled request's text ('Request was throttled. Expected available in 42 seconds.') says to wait; null for any other text. */
export function throttledForSeconds(text: string): number | null {
  const seconds = Number(THROTTLED.exec(text)?.[1] ?? Number.NaN);
  return Number.isInteger(seconds) && seconds > 0 ? seconds : null;
}
