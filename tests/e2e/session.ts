// Signing in for the end-to-end tests the way a user does: the login form, then the second factor
// (a TOTP code computed from the demo secret, or the e-mailed code read from the outbox). Also the
// small helpers every e2e file shares: `step` runs part of a test and, when it fails, rethrows
// naming the screen and what was expected (with a screenshot and the page's URL), and the request
// log of a page.
import fs from 'node:fs';
import path from 'node:path';
import { generate } from 'otplib';
import type { Browser, BrowserContextOptions, Locator, Page, Request } from 'playwright-core';
import { account, password, type Portal } from './portal.ts';

const root = path.resolve(import.meta.dirname, '../..');
export const FAILURE_DIR = path.join(root, 'test-results', 'failures');

/** The desktop browser every e2e file starts from (English labels, a fixed viewport). */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 }, locale: 'en-US' };

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];

/**
 * Runs one step of a test on a screen. A failure is rethrown as
 * "On the {screen} screen, expected {expected}: {cause}", with the URL and a screenshot's path.
 */
export async function step<T>(page: Page, screen: string, expected: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    let where = '';
    try {
      where = `\n  at ${page.url()}`;
      fs.mkdirSync(FAILURE_DIR, { recursive: true });
      const file = path.join(FAILURE_DIR, `${screen.replace(/[^\w-]+/g, '-')}-${Date.now()}.png`);
      await page.screenshot({ path: file, fullPage: true, timeout: 5_000 });
      where += `\n  screenshot: ${path.relative(root, file)}`;
    } catch {
      // The page may be gone: the message still says what was expected.
    }
    throw new Error(`On the ${screen} screen, expected ${expected}: ${firstLine(error)}${where}`, { cause: error });
  }
}

/** Waits for a locator to be visible, failing with the screen and what was expected. */
export function expectVisible(page: Page, screen: string, locator: Locator, expected: string, timeout = 10_000): Promise<void> {
  return step(page, screen, expected, () => locator.waitFor({ state: 'visible', timeout }));
}

/** Polls `probe` until it answers something other than undefined, or fails after `timeout` ms. */
export async function poll<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeout = 10_000,
  interval = 100,
): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

// --- Second factors -----------------------------------------------------------------------------

/**
 * The server accepts a TOTP code of the current 30 s step or a neighbouring one, and each step of
 * an account only once (no replay). So that several sign-ins of one account in one portal never
 * reuse a step, the last step used is remembered per portal and account; when the next free step
 * is too far ahead, this waits until the clock gets there.
 */
const usedTotpSteps = new Map<string, number>();

async function nextTotpCode(portal: Portal, username: string, secret: string): Promise<string> {
  const key = `${portal.url}|${username}`;
  const last = usedTotpSteps.get(key) ?? Number.NEGATIVE_INFINITY;
  const step = await poll(
    `a TOTP time step after ${last} for ${username}`,
    () => {
      const current = Math.floor(Date.now() / 30_000);
      const next = Math.max(current, last + 1);
      return next <= current + 1 ? next : undefined;
    },
    65_000,
    250,
  );
  usedTotpSteps.set(key, step);
  return generate({ secret, epoch: step * 30 });
}

/** The newest code e-mailed to the address so far, or null. */
export async function latestEmailCode(portal: Portal, email: string): Promise<string | null> {
  const response = await fetch(`${portal.url}/__dev/outbox?to=${encodeURIComponent(email)}`);
  const messages = (await response.json()) as { code: string | null }[];
  return messages[0]?.code ?? null;
}

/**
 * Signs a demo account with a second factor in through the real screens: by default from /login;
 * with `path: null` on whatever gated page the browser is on (the gate shows in place there).
 * Resolves once the app's Logout button shows.
 */
export async function signIn(page: Page, portal: Portal, username: string, options: { path?: string | null } = {}): Promise<void> {
  const user = account(username);
  const path = options.path === undefined ? '/login' : options.path;
  if (path !== null) await page.goto(`${portal.url}${path}`);
  await step(page, 'login', "the 'Affiliate Login' form", async () => {
    await page.getByRole('heading', { name: 'Affiliate Login' }).waitFor();
    await page.getByLabel('Email or Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
  });
  const previousEmailCode = user.method === 'email' ? await latestEmailCode(portal, user.email) : null;
  await page.getByRole('button', { name: 'Login' }).click();

  if (user.method === 'totp') {
    await step(page, 'TOTP verification', "'Enter 2FA Code' after the password", async () => {
      await page.getByRole('heading', { name: 'Enter 2FA Code' }).waitFor();
      await page.getByLabel('Authentication Code').fill(await nextTotpCode(portal, username, user.totpSecret!));
      await page.getByRole('button', { name: 'Verify' }).click();
    });
  } else if (user.method === 'email') {
    await step(page, 'e-mail verification', "'Check Your Email' and a new code in the outbox", async () => {
      await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
      await page.getByLabel('Email Verification Code').fill(await portal.emailCode(user.email, previousEmailCode));
      await page.getByRole('button', { name: 'Verify Code' }).click();
    });
  } else {
    throw new Error(`signIn: ${username} has no second factor set up yet; it signs in only TOTP and e-mail accounts`);
  }
  await step(page, 'sign-in', `${username} signed in (the header's Logout button)`, () =>
    page.getByRole('button', { name: 'Logout' }).waitFor({ timeout: 15_000 }),
  );
}

/** Fills in the login form at /login and presses Login; what comes next is the caller's. */
export async function submitCredentials(page: Page, portal: Portal, username: string, secret = password): Promise<void> {
  await page.goto(`${portal.url}/login`);
  await page.getByLabel('Email or Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(secret);
  await page.getByRole('button', { name: 'Login' }).click();
}

// --- Signed-in pages ----------------------------------------------------------------------------

/** Where a test enters the portal to reach `path`: the path itself. */
export function entryPath(path: string): string {
  return path;
}

type StorageState = Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['storageState']>>;

const signedInStates = new WeakMap<Portal, Map<string, StorageState>>();

function accessSecondsLeft(state: StorageState): number {
  const stored = state.origins.flatMap((origin) => origin.localStorage).find((item) => item.name === 'auth_token')?.value;
  if (!stored) return 0;
  try {
    const access = (JSON.parse(stored) as { access: string }).access;
    const claims = JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number };
    return claims.exp - Date.now() / 1000;
  } catch {
    return 0;
  }
}

/**
 * A fresh page in a fresh browser context, signed in as `username`, at `path`. The first call for
 * a portal and account signs in through the screens (signIn); later calls start from the session
 * that sign-in stored (localStorage auth_token), as a returning user's browser does, so that a
 * file's tests need not wait for new TOTP steps. Close it with `page.context().close()`.
 */
export async function signedInPage(
  browser: Browser,
  portal: Portal,
  username: string,
  options: { path?: string; context?: BrowserContextOptions } = {},
): Promise<Page> {
  const states = signedInStates.get(portal) ?? new Map<string, StorageState>();
  signedInStates.set(portal, states);
  const saved = states.get(username);
  // The stored session is reused while its access token is far from its refresh (60 s before expiry).
  const reuse = saved !== undefined && accessSecondsLeft(saved) > 120;
  const context = await browser.newContext({ ...DESKTOP, ...options.context, ...(reuse ? { storageState: saved } : {}) });
  const page = await context.newPage();
  if (reuse) {
    await page.goto(`${portal.url}${entryPath(options.path ?? '/')}`);
    await step(page, 'restored session', `${username} still signed in (the header's Logout button)`, () =>
      page.getByRole('button', { name: 'Logout' }).waitFor({ timeout: 15_000 }),
    );
    return page;
  }
  await signIn(page, portal, username);
  states.set(username, await context.storageState());
  if (options.path && options.path !== '/') await page.goto(`${portal.url}${options.path}`);
  return page;
}

/** The dashboard's heading: '{affiliate} Sales Dashboard', or any affiliate's. */
export const dashboardHeading = (page: Page, name: string | RegExp = /Sales Dashboard$/) =>
  page.getByRole('heading', { level: 1, name, exact: true });

export interface StoredToken {
  username: string;
  access: string;
  refresh: string;
}

/** The session's record in localStorage (auth_token), or null. */
export const storedToken = async (page: Page): Promise<StoredToken | null> =>
  JSON.parse((await page.evaluate(() => localStorage.getItem('auth_token'))) ?? 'null') as StoredToken | null;

// --- Requests -----------------------------------------------------------------------------------

export interface ApiRequest {
  method: string;
  url: URL;
  /** The path below /api/v2/: 'payment_events/'. */
  path: string;
}

/** Every API call the page makes from now on, in order. */
export function recordApiRequests(page: Page): ApiRequest[] {
  const log: ApiRequest[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    const at = url.pathname.indexOf('/api/v2/');
    if (at >= 0) log.push({ method: request.method(), url, path: url.pathname.slice(at + '/api/v2/'.length) });
  });
  return log;
}
