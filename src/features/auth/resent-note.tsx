// The polite line after a successful 'Resend Email'. The live region stays in the page, empty
// until there is something to say, so that the message is announced when it appears.

export function ResentNote({ shown }: { shown: boolean }) {
  return (
    <p role="status" className="auth-note">
      {shown ? 'A new code has been sent.' : null}
    </p>
  );
}
