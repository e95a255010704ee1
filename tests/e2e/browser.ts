// The real browser for end-to-end tests: Debian's Chromium (or CHROMIUM_PATH, or an installed
// Google Chrome) driven by playwright-core. No browser is ever downloaded. Every context it opens
// (browser.newPage included) reports Content Security Policy violations to tests/e2e/csp.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { watchCspViolations } from './csp.ts';

function onPath(name: string): string | null {
  try {
    return execFileSync('which', [name], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!fs.existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH is set to ${fromEnv}, which does not exist.`);
    return fromEnv;
  }
  const found = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'].map(onPath).find(Boolean);
  if (found) return found;
  throw new Error(
    'The end-to-end tests need Chromium and none was found. Install it with `apt-get install -y chromium` ' +
      '(Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary.',
  );
}

/**
 * How tests and the browser bench launch Chromium: headless, and quiet. Left on, this Chromium
 * loads its own omnibox pop-up (a WebUI page of some 400 chrome:// modules) now and then as pages
 * open, on the same two cores, in the middle of a measured load.
 */
export const CHROMIUM_LAUNCH = {
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup,PreloadTopChromeWebUI',
  ],
};

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: findChromium(), ...CHROMIUM_LAUNCH });
  // browser.newPage opens its context through newContext too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchCspViolations(context);
    return context;
  };
  return browser;
}
