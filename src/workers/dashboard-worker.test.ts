import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStoredToken } from '../../tests/utils/tokens.ts';
import { TOKEN_STORAGE_KEY } from '../domain/auth-token.ts';
import { serialiseClockOffset, SERVER_CLOCK_KEY } from '../domain/server-clock.ts';
import { VIEW_AS_KEY } from '../domain/view-as-choice.ts';
import { prerenderMarks } from '../features/auth/prerendered-login.ts';
import { BOOTED_WORKER, viewQuery, type EarlyCalls, type EarlyMessage } from './dashboard-start.ts';

/** What each worker the page made was told to call, and the workers made. */
let told: EarlyCalls[] = [];
let made: FakeWorker[] = [];
let fetched: string[] = [];
/** What the boot's worker was told of the session, with how many links the page's head had then. */
let booted: { boot: unknown; links: number }[] = [];

class FakeWorker {
  onmessage: unknown = null;
  onerror: unknown = null;
  listeners: string[] = [];
  constructor() {
    made.push(this);
  }
  postMessage(message: EarlyMessage) {
    if (message.start) told.push(message.start);
    if (message.boot) booted.push({ boot: message.boot, links: document.head.querySelectorAll('link').length });
  }
  addEventListener(type: string) {
    this.listeners.push(type);
  }
}

/** Loads dashboard-worker.ts anew, as a page load evaluates it, at `path`. */
async function pageLoad(path: string) {
  window.history.replaceState(null, '', path);
  vi.resetModules();
  return import('./dashboard-worker.ts');
}

const session = (token: string) => ({ baseUrl: '/api/v2/', fetch: undefined, accessToken: () => token });

beforeEach(() => {
  told = [];
  made = [];
  fetched = [];
  booted = [];
  vi.stubGlobal('Worker', FakeWorker);
  vi.stubGlobal('fetch', (input: string) => {
    fetched.push(input);
    return new Promise<Response>(() => {});
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  delete window[BOOTED_WORKER];
  window.history.replaceState(null, '', '/');
});

describe("the app's start of the dashboard's worker", () => {
  it("tells the worker of the URL's range's calls, with the session's token and the affiliate viewed as; of the home route's view on / only", async () => {
    const module = await pageLoad('/');
    const token = makeStoredToken().access;
    await module.startDashboardWorker(session(token), 'AFF-100', '?range=current', '/');
    await module.startDashboardWorker(session(token), null, '', '/affiliate/AFF-101');
    expect(told).toEqual([
      {
        baseUrl: `${window.location.origin}/api/v2/`,
        token,
        impersonated: 'AFF-100',
        range: viewQuery('?range=current'),
        home: true,
        affiliate: null,
      },
      { baseUrl: `${window.location.origin}/api/v2/`, token, impersonated: null, range: viewQuery(''), home: false, affiliate: 'AFF-101' },
    ]);
    // The worker makes the calls: the page makes none.
    expect(fetched).toEqual([]);
    expect(made).toHaveLength(1);
  });

  it('tells it once for a token and an affiliate viewed as, and anew for another token (refreshed first)', async () => {
    const module = await pageLoad('/');
    await module.startDashboardWorker(session('stored-access'), null);
    await module.startDashboardWorker(session('stored-access'), null);
    expect(told.map((calls) => calls.token)).toEqual(['stored-access']);
    await module.startDashboardWorker(session('refreshed-access'), null);
    expect(told.map((calls) => calls.token)).toEqual(['stored-access', 'refreshed-access']);
  });

  it("takes over the worker index.html's boot script started, with its handlers let go", async () => {
    const booted = new FakeWorker();
    booted.onmessage = booted.onerror = () => {};
    window[BOOTED_WORKER] = booted as unknown as Worker;
    const module = await pageLoad('/');
    expect(module.dashboardWorker()).toBe(booted);
    expect(made).toEqual([booted]);
    expect([booted.onmessage, booted.onerror]).toEqual([null, null]);
    // Its failure from now on is the app's to see.
    expect(booted.listeners).toContain('error');
  });

  it('starts a worker of its own where the boot script started none (or its worker failed)', async () => {
    const module = await pageLoad('/');
    const worker = module.dashboardWorker();
    expect(made).toEqual([worker]);
    expect(module.dashboardWorker()).toBe(worker);
  });
});

describe("the dashboard's code for a stored session, before the app runs", () => {
  const listed = ['/assets/dashboard-page-1.js', '/assets/daily-chart-2.js', '/assets/dashboard-page-3.css'];
  /** Each link in the page's head: 'rel as path'. */
  const preloads = () =>
    [...document.head.querySelectorAll<HTMLLinkElement>('link')].map((link) =>
      [link.rel, link.getAttribute('as'), new URL(link.href).pathname].filter(Boolean).join(' '),
    );

  beforeEach(() => {
    const meta = document.createElement('meta');
    meta.name = 'dashboard-modules';
    meta.content = listed.join(' ');
    document.head.append(meta);
  });
  afterEach(() => document.head.replaceChildren());

  it("asks for the modules the page lists on the dashboard's routes, and makes no call", async () => {
    await pageLoad('/affiliate/AFF-101');
    // The stylesheet is only fetched: Vite's loader applies it with the page's chunk.
    expect(preloads()).toEqual([
      'modulepreload /assets/dashboard-page-1.js',
      'modulepreload /assets/daily-chart-2.js',
      'preload style /assets/dashboard-page-3.css',
    ]);
    // Module scripts and Vite's stylesheets are fetched in CORS mode: so are their preloads, or the fetch is not reused.
    for (const link of document.head.querySelectorAll<HTMLLinkElement>('link')) expect(link.crossOrigin).toBe('');
    expect([told, made, fetched]).toEqual([[], [], []]);
  });

  it("tells the boot's worker of the stored session, the page's URL and the tab's choice of view, once the code is asked for", async () => {
    const record = JSON.stringify(makeStoredToken());
    const clock = serialiseClockOffset(-600_000);
    localStorage.setItem(TOKEN_STORAGE_KEY, record);
    localStorage.setItem(SERVER_CLOCK_KEY, clock);
    const choice = JSON.stringify(['admin', 'AFF-120']);
    sessionStorage.setItem(VIEW_AS_KEY, choice);
    window[BOOTED_WORKER] = new FakeWorker() as unknown as Worker;
    try {
      const module = await pageLoad('/?range=current');
      expect(module.STORED_TOKEN_KEY).toBe(TOKEN_STORAGE_KEY);
      expect(module.STORED_CLOCK_KEY).toBe(SERVER_CLOCK_KEY);
      expect(module.VIEW_AS_KEY).toBe(VIEW_AS_KEY);
      expect(booted).toEqual([{ boot: [record, `${window.location.origin}/?range=current`, clock, choice], links: 3 }]);
    } finally {
      localStorage.clear();
      sessionStorage.clear();
    }
  });

  it('asks for nothing and tells nothing on other routes, or once the app runs (the app asks for its code itself)', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, JSON.stringify(makeStoredToken()));
    window[BOOTED_WORKER] = new FakeWorker() as unknown as Worker;
    for (const path of ['/reports', '/login', '/invite/abc']) await pageLoad(path);
    expect(preloads()).toEqual([]);
    const module = await pageLoad('/reports');
    expect(module.APP_STARTED_MARK).toBe(prerenderMarks.started);
    document.documentElement.setAttribute(prerenderMarks.started, '');
    try {
      await pageLoad('/');
      expect(preloads()).toEqual([]);
      expect(booted).toEqual([]);
    } finally {
      document.documentElement.removeAttribute(prerenderMarks.started);
      localStorage.clear();
    }
  });
});
