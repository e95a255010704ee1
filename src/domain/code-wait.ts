// The wait after too many codes, as the sign-in screens show it: 'Too many attempts. You can try
// again in {m:ss}.', the minutes and seconds left.

/** Whole seconds as m:ss: 896 → '14:56', 5 → '0:05', 3600 → '60:00'. */
export const minutesAndSeconds = (seconds: number): string => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
