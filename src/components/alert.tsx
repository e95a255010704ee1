// The error line of a screen. The live region is always in the page, so that a message that
// appears in it is announced; while there is no message it is an empty, silent region that takes
// no space (styles.css: p[aria-live]:empty), and no alert: a page without an error has none.

export function Alert({ id, message }: { id?: string; message: string | null }) {
  return (
    <p id={id} aria-live="assertive" role={message ? 'alert' : undefined}>
      {message || null}
    </p>
  );
}
