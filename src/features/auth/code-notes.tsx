// The lines a code form shows under its error line: what to do after a refused setup code, and
// the wait after too many codes. Each is a polite live region that stays in the page, empty until
// there is something to say, so that what appears in it is announced.
import { useState } from 'react';
import { codeWaitText } from '../../domain/code-wait.ts';

/** The ids of the lines that describe a field, or undefined when none is shown. */
export const describedBy = (...ids: (string | null)[]): string | undefined => ids.filter(Boolean).join(' ') || undefined;

/** What a setup's code form says once its code was refused (`text`, for the authenticator or the e-mail); empty until then. */
export function RefusedCodeNote({ id, text }: { id: string; text: string | null }) {
  return (
    <p id={id} aria-live="polite" className="auth-note auth-note--live">
      {text}
    </p>
  );
}

/**
 * 'Too many attempts. You can try again in {n} minutes.', then '… in {n} seconds.' for the last two
 * minutes, counting down each second: a timer that is a polite live region when the wait begins,
 * while it is said in minutes (a change a minute) and at each half minute after, and silent in
 * between, so that a screen reader does not say it every second (it can be read at any time).
 */
export function CodeWaitNote({ id, seconds }: { id: string; seconds: number }) {
  // The seconds the wait began with (0 while there is none).
  const [begun, setBegun] = useState(seconds);
  if (seconds === 0 ? begun !== 0 : begun === 0 || seconds > begun) setBegun(seconds);
  const announced = seconds === begun || seconds >= 120 || seconds % 30 === 0;
  return (
    <p id={id} role="timer" aria-live={announced ? 'polite' : 'off'} aria-atomic="true" className="auth-note auth-note--live">
      {seconds > 0 ? codeWaitText(seconds) : null}
    </p>
  );
}
