// The wait after too many codes, as the sign-in screens say it: in whole minutes, rounded up,
// while two minutes or more remain, then in seconds, so that the line changes once a minute until
// the last two.

/** The wait left, in words: 900 → '15 minutes', 121 → '3 minutes', 120 → '2 minutes', 119 → '119 seconds'. */
export const waitLeft = (seconds: number): string => (seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`);

/** The line after too many codes, with the wait left. */
export const codeWaitText = (seconds: number): string => `Too many attempts. You can try again in ${waitLeft(seconds)}.`;
