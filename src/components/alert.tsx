// The error line of a screen. The live region is always in the page, so that a message that
// appears in it is announced; while there is no message it is empty and takes no space
// (styles.css: [role='alert']:empty).

export function Alert({ id, message }: { id?: string; message: string | null }) {
  return (
    <p id={id} role="alert">
      {message || null}
    </p>
  );
}
