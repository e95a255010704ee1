// The polite lines of the e-mail code screens: after a successful 'Resend Email', and the wait
// before Resend may be asked again. Each live region stays in the page, empty until there is
// something to say, so that the message is announced when it appears.

export function ResentNote({ shown }: { shown: boolean }) {
  return (
    <p role="status" className="auth-note">
      {shown ? 'A new code has been sent.' : null}
    </p>
  );
}

/** The wait before 'Resend Email' may send another code, counting down each second; gone once it is over. */
export function ResendWaitNote({ id, seconds }: { id: string; seconds: number }) {
  return (
    <p id={id} aria-live="polite" className="auth-note">
      {seconds > 0 ? `You can ask for a new code in ${seconds} s.` : null}
    </p>
  );
}
