// The login form prerendered into index.html at build time, from its first paint until the app
// takes it over. A script inline in <head> (bootPrerenderedLogin: its source text is the script)
// runs before the form is parsed:
// - it hides the form where the app will not show it with that markup: a stored session, valid
//   or not (a moment of blank page costs less than a flash of the wrong screen), or a route
//   other than /, /login and /reports (/invite/... is the invite page, /affiliate/:id links the
//   logo elsewhere, unknown paths redirect);
// - for a stored session on a dashboard route, it starts the dashboard's worker, which makes the
//   dashboard's calls while the app's code loads (src/workers/dashboard-start.ts), and loads the
//   chunk that tells the worker of the session (src/workers/dashboard-worker.ts);
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
  /** The dashboard's start chunk: loaded at once on a dashboard route with a session stored, it asks for the dashboard page's code, then tells the worker of the session (src/workers/dashboard-worker.ts). */
  dashboard: string;
  /** The dashboard's worker script, started at once there: it makes the dashboard's calls (src/workers/dashboard.worker.ts). */
  worker: string;
}

/**
 * The inline script. Self-contained (no imports, no outer names): index.html carries its source
 * text, and the server's Content-Security-Policy allows exactly that text by its hash.
 */
export function bootPrerenderedLogin(doc: Document, { storageKey, marks, entry, dashboard, worker }: BootOptions): void {
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
  const load = (src: string, preload?: true) => {
    const element = Object.assign(
      doc.createElement(preload ? 'link' : 'script'),
      preload ? { rel: 'modulepreload', href: src } : { type: 'module', src },
      { crossOrigin: '' },
    );
    doc.head.append(element);
    return element;
  };
  // The app's code is fetched and runs after the form's first paint: fetched earlier, compiling
  // it holds that paint back. Another page starts it at once. A stored session on a dashboard
  // route starts the dashboard's worker first, and the dashboard's start chunk, which asks for
  // the page's code and then tells the worker of the session; the app's code starts once the
  // worker answers, its calls made as it saw fit: a message posted to a worker reaches it only
  // once the page's thread is free after the worker's script has run, which the app's code would
  // hold back.
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    load(entry);
  };
  // The dashboard's routes, as the router matches them (DASHBOARD_ROUTE); the worker is left in
  // window[BOOTED_WORKER] for the app: both written out, as this script imports nothing.
  if (token !== null && /^\/(?:affiliate\/[^/]+\/?)?$/i.test(location.pathname)) {
    load(entry, true);
    load(dashboard);
    const booted = (window.dashboardWorker = new Worker(worker, { type: 'module' }));
    booted.onmessage = start;
    // A worker that cannot start is left to the app, which starts its own or does without.
    booted.onerror = () => {
      delete window.dashboardWorker;
      start();
    };
  } else if (hidden || doc.visibilityState === 'hidden') start();
  else requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, 250); // where frames are held back, or the worker is slow to answer
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
