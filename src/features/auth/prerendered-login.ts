// The login form prerendered into index.html at build time, from its first paint until the app
// takes it over. A script inline in <head> (bootPrerenderedLogin: its source text is the script)
// runs before the form is parsed:
// - it hides the form where the app will not show it with that markup: a stored session, valid
//   or not (a moment of blank page costs less than a flash of the wrong screen), or a route
//   other than /, /login and /reports (/invite/... is the invite page, /affiliate/:id links the
//   logo elsewhere, unknown paths redirect);
// - a Login (or Enter) pressed before the app runs is held: the browser's own submission would
//   send the password in a request of its own. The login screen sends it once it has taken over
//   the form (takeSignInRequest), with what was typed.
// The marks live on <html>, outside what React renders, so the form's markup stays the app's own.

export const prerenderMarks = {
  /** The prerendered form is not the screen to show: auth.css hides it. */
  hidden: 'data-login-hidden',
  /** Login was pressed before the app ran. */
  asked: 'data-login-asked',
  /** The app runs: submissions are its own. */
  started: 'data-app-started',
} as const;

export interface BootOptions {
  /** Where the session's token record is stored. */
  storageKey: string;
  marks: typeof prerenderMarks;
  /** The app's entry module, started by this script (not preloaded by the page: see below). */
  entry: string;
}

/**
 * The inline script. Self-contained (no imports, no outer names): index.html carries its source
 * text, and the server's Content-Security-Policy allows exactly that text by its hash.
 */
export function bootPrerenderedLogin(doc: Document, { storageKey, marks, entry }: BootOptions): void {
  const html = doc.documentElement;
  let token = null;
  try {
    token = localStorage.getItem(storageKey);
  } catch {
    // No storage (a privacy mode): the app starts signed out, as the form says.
  }
  // The routes whose signed-out page is the prerendered one, matched as the router does.
  const hidden = token !== null || !/^\/(?:(?:login|reports)\/?)?$/i.test(location.pathname);
  if (hidden) html.setAttribute(marks.hidden, '');
  // The app's code is fetched and runs after the form's first paint: fetched earlier, compiling
  // it holds that paint back. Another page starts it at once.
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    doc.head.append(Object.assign(doc.createElement('script'), { type: 'module', src: entry, crossOrigin: '' }));
  };
  if (hidden || doc.visibilityState === 'hidden') start();
  else requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, 250); // where frames are held back
  doc.addEventListener(
    'submit',
    (event) => {
      if (html.hasAttribute(marks.started)) return;
      event.preventDefault();
      html.setAttribute(marks.asked, '');
    },
    true,
  );
}

/** The source text of the inline script, for the build to write into index.html. */
export function bootScriptSource(storageKey: string, chunks: Omit<BootOptions, 'storageKey' | 'marks'>): string {
  const options: BootOptions = { storageKey, marks: prerenderMarks, ...chunks };
  return `(${bootPrerenderedLogin.toString()})(document,${JSON.stringify(options)});`;
}

/** Whether Login was pressed before the app ran; asks once, so the sign-in is sent once. */
export function takeSignInRequest(doc: Document): boolean {
  const html = doc.documentElement;
  const asked = html.hasAttribute(prerenderMarks.asked);
  html.removeAttribute(prerenderMarks.asked);
  return asked;
}

/** What the login form's fields hold: typed, or filled in by a password manager. */
export function typedCredentials(form: HTMLFormElement): { username: string; password: string } {
  const value = (name: string) => {
    const field = form.elements.namedItem(name);
    return field instanceof HTMLInputElement ? field.value : '';
  };
  return { username: value('username'), password: value('password') };
}
