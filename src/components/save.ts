// Saving a file the portal made or downloaded (a report, a CSV export) under a name of its own.

/** Hands a file to the user under a name. */
export type SaveFile = (file: Blob, fileName: string) => void;

/** How long the object URL outlives the click: some browsers read it after the click returns. */
export const REVOKE_DELAY_MS = 1000;

/** The browser's way: an object URL, a temporary <a download> clicked, then the URL revoked. */
export function saveInBrowser(file: Blob, fileName: string, doc: Document = document): void {
  const view = doc.defaultView ?? window;
  const url = view.URL.createObjectURL(file);
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  doc.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    view.setTimeout(() => view.URL.revokeObjectURL(url), REVOKE_DELAY_MS);
  }
}
