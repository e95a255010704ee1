// What every end-to-end file sets up: one Chromium (launchBrowser) and one portal with fresh demo
// data (startPortal) for the whole file, closed after it; and the browser contexts a test opens,
// closed after that test, so that each test starts signed out in a fresh browser (and the suite's
// setup, which runs after these hooks, sees every page's CSP violations in).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startPortal, type Portal } from './portal.ts';

export interface E2e {
  /** The file's Chromium, from its beforeAll on. */
  readonly browser: Browser;
  /** The file's portal, from its beforeAll on. */
  readonly portal: Portal;
  /** Closes the page's context (or the context) after the current test; answers what it was given. */
  track<T extends Page | BrowserContext>(opened: T): T;
}

/** Registers the file's hooks (call it at the top of the file) and answers their browser and portal. */
export function setUpPortal(options?: Parameters<typeof startPortal>[0]): E2e {
  let browser: Browser | undefined;
  let portal: Portal | undefined;
  const opened: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    portal = await startPortal(options);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });
  afterEach(async () => {
    // Closing a closed context does nothing: a test may close its own first.
    for (const context of opened.splice(0)) await context.close();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`setUpPortal: the ${what} starts in beforeAll; read it inside hooks and tests`);
    return value;
  };
  return {
    get browser() {
      return started(browser, 'browser');
    },
    get portal() {
      return started(portal, 'portal');
    },
    track(target) {
      opened.push('newPage' in target ? target : target.context());
      return target;
    },
  };
}
