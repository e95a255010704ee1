// The lines a code form shows under its error line: what to do after a refused setup code, and
// the wait after too many codes. Each is a live region that stays in the page, empty until there
// is something to say, so that what appears in it is announced.
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
 * minutes, counting down each second. An error: an alert when the wait begins, said at once; then a
 * timer that is a polite live region while it is said in minutes (a change a minute) and at each
 * half minute after, and silent in between, so that a screen reader does not say it every second
 * (it can be read at any time). Empty, it is a silent region that stays in the page.
 */
export function CodeWaitNote({ id, seconds }: { id: string; seconds: number }) {
  // The seconds the wait began with (0 while there is none).
  const [begun, setBegun] = useState(seconds);
  if (seconds === 0 ? begun !== 0 : begun === 0 || seconds > begun) setBegun(seconds);
  const alert = seconds > 0 && seconds === begun;
  const announced = seconds >= 120 || seconds % 30 === 0;
  return (
    <p
      id={id}
      role={alert ? 'alert' : seconds > 0 ? 'timer' : undefined}
      aria-live={seconds === 0 || alert ? 'assertive' : announced ? 'polite' : 'off'}
      aria-atomic="true"
      className="error-line"
    >
      {seconds > 0 ? codeWaitText(seconds) : null}
    </p>
  );
}
