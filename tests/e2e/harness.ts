// What every end-to-end file sets up: one Chromium (launchBrowser) and one portal with fresh demo
// data (startPortal) for the whole file, closed after it; and the browser contexts a test opens,
// closed after that test, so that each test starts signed out in a fresh browser (and the suite's
// setup, which runs after these hooks, sees every page's CSP violations in). A describe block that
// needs a portal started otherwise (a short token lifetime) gets its own (ownPortal).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startPortal, type Portal } from './portal.ts';
import { DESKTOP } from './session.ts';

export interface E2e {
  /** The file's Chromium, from its beforeAll on. */
  readonly browser: Browser;
  /** The file's portal, from its beforeAll on. */
  readonly portal: Portal;
  /** Closes the page's context (or the context) after the current test; answers what it was given. */
  track<T extends Page | BrowserContext>(opened: T): T;
  /** A page in a fresh desktop browser context, closed after the current test: signed out. */
  freshPage(): Promise<Page>;
}

const started = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`setUpPortal: the ${what} starts in beforeAll; read it inside hooks and tests`);
  return value;
};

/** A portal of the calling file or describe block: started in its beforeAll, closed after it. */
export function ownPortal(options?: Parameters<typeof startPortal>[0]): { readonly portal: Portal } {
  let portal: Portal | undefined;
  beforeAll(async () => {
    portal = await startPortal(options);
  });
  afterAll(async () => {
    await portal?.close();
  });
  return {
    get portal() {
      return started(portal, 'portal');
    },
  };
}

/** Registers the file's hooks (call it at the top of the file) and answers their browser and portal. */
export function setUpPortal(options?: Parameters<typeof startPortal>[0]): E2e {
  let browser: Browser | undefined;
  const opened: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  const own = ownPortal(options);
  afterEach(async () => {
    // Closing a closed context does nothing: a test may close its own first.
    for (const context of opened.splice(0)) await context.close();
  });

  const e2e: E2e = {
    get browser() {
      return started(browser, 'browser');
    },
    get portal() {
      return own.portal;
    },
    track(target) {
      opened.push('newPage' in target ? target : target.context());
      return target;
    },
    async freshPage() {
      const context = e2e.track(await e2e.browser.newContext(DESKTOP));
      return context.newPage();
    },
  };
  return e2e;
}
