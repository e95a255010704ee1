import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expiresIn, makeStoredToken } from '../../tests/utils/tokens.ts';
import { TOKEN_STORAGE_KEY } from '../domain/auth-token.ts';
import { toQuery } from '../domain/dates.ts';
import { prerenderMarks } from '../features/auth/prerendered-login.ts';
import type { WarmRequest } from './dashboard-service.ts';
import type { EarlyMessage, Expected } from './dashboard-start.ts';

/** What the page's worker was told: the calls made for it, with the token they went out with. */
let told: Expected[] = [];
/** The views it was told those calls are for. */
let views: WarmRequest[] = [];
let fetched: { url: string; authorization: string | null }[] = [];

class FakeWorker {
  postMessage(message: EarlyMessage) {
    if (message.expect) told.push(message.expect);
    if (message.warm) views.push(message.warm);
  }
  addEventListener() {}
}

/** Loads dashboard-worker.ts anew, as a page load evaluates it, at `path` with `stored` in storage. */
async function pageLoad(path: string, stored: string | null) {
  window.history.replaceState(null, '', path);
  if (stored === null) localStorage.removeItem('auth_token');
  else localStorage.setItem('auth_token', stored);
  vi.resetModules();
  return import('./dashboard-worker.ts');
}

const paths = () => told.map((call) => new URL(call.url).pathname);
/** A stored session whose access token has `seconds` left. */
const stored = (seconds = 600) => makeStoredToken({ exp: expiresIn(seconds) });

beforeEach(() => {
  told = [];
  views = [];
  fetched = [];
  vi.stubGlobal('Worker', FakeWorker);
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    fetched.push({ url: input, authorization: new Headers(init?.headers).get('Authorization') });
    return new Promise<Response>(() => {});
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe("the dashboard's start for a stored session, before the app runs", () => {
  it("makes the default range's three calls for the worker with the stored access token, on the dashboard's routes", async () => {
    const session = stored();
    await pageLoad('/', JSON.stringify(session));
    expect(paths()).toEqual(['/api/v2/affiliates/', '/api/v2/payment_events/', '/api/v2/connection_fees/']);
    expect(told.every((call) => call.token === session.access)).toBe(true);
    expect(fetched.map((call) => call.authorization)).toEqual(Array(3).fill(`Bearer ${session.access}`));

    told = [];
    await pageLoad('/affiliate/AFF-101', JSON.stringify(session));
    expect(paths()).toHaveLength(3);
  });

  it('tells the worker which view the calls are for on the home route only, with the range, zone and locale the page derives with', async () => {
    const session = stored();
    await pageLoad('/', JSON.stringify(session));
    const query = new URL(told[1]!.url).searchParams;
    const { timeZone, locale } = new Intl.DateTimeFormat().resolvedOptions();
    expect(views).toEqual([
      {
        baseUrl: `${window.location.origin}/api/v2/`,
        token: session.access,
        impersonated: null,
        range: { start: query.get('start'), end: query.get('end'), zone: timeZone, locale },
      },
    ]);
    const range = { start: DateTime.local().minus({ days: 30 }).startOf('day'), end: DateTime.local().plus({ days: 1 }).startOf('day') };
    expect(views[0]!.range).toEqual({ ...toQuery(range), zone: range.start.zoneName, locale: range.start.locale });

    views = [];
    await pageLoad('/affiliate/AFF-101', JSON.stringify(session));
    expect(told).toHaveLength(6);
    expect(views).toEqual([]);
  });

  it("asks for the range the URL's query names (Last 30 days without one, or for a bad one)", async () => {
    const session = JSON.stringify(stored());
    const asked = () => told.filter((call) => call.url.includes('/payment_events/')).map((call) => new URL(call.url).searchParams);
    await pageLoad('/affiliate/AFF-101?range=custom&start=2026-10-01&end=2026-10-31&day=2026-10-05&chart=sales', session);
    const [custom] = asked();
    expect(custom?.get('start')).toMatch(/^2026-10-01T00:00:00\.000/);
    expect(custom?.get('end')).toMatch(/^2026-11-01T00:00:00\.000/);

    told = [];
    await pageLoad('/?range=weekly', session);
    const [fallback] = asked();
    told = [];
    await pageLoad('/', session);
    expect(fallback?.toString()).toBe(asked()[0]?.toString());
  });

  it("reads the session's own storage key", async () => {
    const { STORED_TOKEN_KEY } = await pageLoad('/', null);
    expect(STORED_TOKEN_KEY).toBe(TOKEN_STORAGE_KEY);
  });

  it('starts nothing on other routes, without a stored session, or for a record that is not one', async () => {
    const record = JSON.stringify(stored());
    const cases = [
      ['/reports', record],
      ['/login', record],
      ['/invite/abc', record],
      ['/', null],
      ['/', 'not json'],
      ['/', '{"access":42}'],
      ['/', '{"access":"not.a-jwt"}'],
    ] as const;
    for (const [path, storedRecord] of cases) {
      await pageLoad(path, storedRecord);
      expect(told, `${path} with ${storedRecord}`).toEqual([]);
    }
    expect(fetched).toEqual([]);
  });

  it('starts nothing once the app runs: loaded by the app, on a page that may view as an affiliate by now, the app makes the calls', async () => {
    const module = await pageLoad('/', null);
    expect(module.APP_STARTED_MARK).toBe(prerenderMarks.started);
    document.documentElement.setAttribute(prerenderMarks.started, '');
    try {
      await pageLoad('/', JSON.stringify(stored()));
      expect(told).toEqual([]);
      expect(fetched).toEqual([]);
    } finally {
      document.documentElement.removeAttribute(prerenderMarks.started);
    }
  });

  it('starts nothing for an access token the app refreshes before calling: expired, or under 60 s left', async () => {
    for (const seconds of [-5, 30, 59]) {
      await pageLoad('/', JSON.stringify(stored(seconds)));
      expect(told, `${seconds} s left`).toEqual([]);
    }
    await pageLoad('/', JSON.stringify(stored(70)));
    expect(told).toHaveLength(3);
  });

  it("leaves the app's start to add nothing for the same token, and to call anew for another", async () => {
    const record = stored();
    const module = await pageLoad('/', JSON.stringify(record));
    const session = (token: string) => ({ baseUrl: '/api/v2/', fetch: undefined, accessToken: () => token });
    await module.startDashboardWorker(session(record.access), null);
    expect(told).toHaveLength(3);
    // The app refreshed the stored token first: its calls go out with the new one.
    await module.startDashboardWorker(session('refreshed-access'), null);
    expect(told.slice(3).map((call) => call.token)).toEqual(['refreshed-access', 'refreshed-access', 'refreshed-access']);
  });
});

describe("the dashboard's code for a stored session, before the app runs", () => {
  const listed = ['/assets/dashboard-page-1.js', '/assets/daily-chart-2.js', '/assets/dashboard-page-3.css'];
  /** Each link in the page's head: 'rel as path'. */
  const preloads = () =>
    [...document.head.querySelectorAll<HTMLLinkElement>('link')].map((link) =>
      [link.rel, link.getAttribute('as'), new URL(link.href).pathname].filter(Boolean).join(' '),
    );
  const preloaded = [
    'modulepreload /assets/dashboard-page-1.js',
    'modulepreload /assets/daily-chart-2.js',
    'preload style /assets/dashboard-page-3.css',
  ];

  beforeEach(() => {
    const meta = document.createElement('meta');
    meta.name = 'dashboard-modules';
    meta.content = listed.join(' ');
    document.head.append(meta);
  });
  afterEach(() => document.head.replaceChildren());

  it("asks for the modules the page lists on the dashboard's routes, before its calls", async () => {
    let preloadedBeforeCalls: string[] | null = null;
    vi.stubGlobal('fetch', () => {
      preloadedBeforeCalls ??= preloads();
      return new Promise<Response>(() => {});
    });
    await pageLoad('/', JSON.stringify(stored()));
    // The stylesheet is only fetched: Vite's loader applies it with the page's chunk.
    expect(preloads()).toEqual(preloaded);
    expect(preloadedBeforeCalls).toEqual(preloaded);
    // Module scripts and Vite's stylesheets are fetched in CORS mode: so are their preloads, or the fetch is not reused.
    for (const link of document.head.querySelectorAll<HTMLLinkElement>('link')) expect(link.crossOrigin).toBe('');
  });

  it('asks for them too when the stored token must be refreshed first: the dashboard opens all the same', async () => {
    await pageLoad('/affiliate/AFF-101', JSON.stringify(stored(30)));
    expect(told).toEqual([]);
    expect(preloads()).toEqual(preloaded);
  });

  it('asks for nothing on other routes', async () => {
    for (const path of ['/reports', '/login', '/invite/abc']) await pageLoad(path, JSON.stringify(stored()));
    expect(preloads()).toEqual([]);
  });
});
