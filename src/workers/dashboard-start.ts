// The calls of the dashboard's range (affiliates, payment events, connection fees), which the
// dashboard's worker makes as soon as it is told of them, while the page's code still loads: the
// page's own loads of the same calls then take those up (dashboard-service.ts). The worker makes
// them itself, so that their answers are read, parsed and validated there as they arrive, with
// nothing for the main thread to pass on while it runs the app's code. It is told of them:
// - for the session stored in this browser, by index.html's boot script, which starts the worker
//   before the app's code has loaded and hands it the stored token record and the page's URL
//   (`boot`: bootCalls decides, in the worker, as the app would);
// - by the app, once the session is known on a dashboard route (`start`: dashboard-worker.ts).
// The range is the one the URL's query asks for (src/domain/view-query.ts), Last 30 days without
// one. No luxon here: the query is worked out with Date, as luxon writes it; should the two ever
// differ, the page's loads just make calls of their own. On the home route the worker also
// derives the view the calls are for, as soon as they are in.

import { parseView, rangeDays } from '../domain/view-query.ts';
import type { CallContext } from './dashboard-service.ts';

/** The calls of a range for a token and an affiliate viewed as; `home`: they are the home route's view. */
export interface EarlyCalls extends CallContext {
  range: { start: string; end: string };
  home: boolean;
  /**
   * The affiliate of /affiliate/{id} (null on /): the lists are asked for once the affiliates'
   * answer has it, so that no data call goes out for an affiliate that is not among the user's.
   */
  affiliate: string | null;
}

/**
 * What storage holds of the session (the token record, the server clock's offset kept beside it,
 * and the tab's choice of an affiliate to view as: domain/view-as-choice.ts) and the page's URL,
 * for which the boot script started the worker.
 */
export type BootHandOff = [stored: string, href: string, clock: string | null, viewAs: string | null];

/** What the main thread tells the worker of its calls, as plain messages (not Comlink's). */
export interface EarlyMessage {
  boot?: BootHandOff;
  start?: EarlyCalls;
}

/** Where index.html's boot script leaves the worker it started: none where it started none, or where that worker failed. */
export const BOOTED_WORKER = 'dashboardWorker';

declare global {
  interface Window {
    [BOOTED_WORKER]?: Worker;
  }
}

/** The dashboard's routes, / and /affiliate/:affiliateId, as the router matches them. */
export const DASHBOARD_ROUTE = /^\/(?:affiliate\/[^/]+\/?)?$/i;
/** The home route: the dashboard of every affiliate the user may see. */
export const isHome = (path: string) => path === '/';

/** The affiliate of a dashboard route (/affiliate/{id}), decoded as the router decodes it; null on /. */
export function routeAffiliate(path: string): string | null {
  const segment = /^\/affiliate\/([^/]+)\/?$/i.exec(path)?.[1];
  if (segment === undefined) return null;
  try {
    return segment.includes('%') ? decodeURI(segment) : segment;
  } catch {
    return segment;
  }
}

const pad = (value: number, length = 2) => String(Math.abs(value)).padStart(length, '0');

/** luxon's toISO() of a local time, as the API's query has it (toQuery): the offset written out, '+00:00' included. */
function isoOf(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const zoneText = `${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}${zoneText}`
  );
}

/** The local start of a 'yyyy-MM-dd' day, `after` days later (setFullYear: years below 100 stay so). */
function localDayStart(day: string, after = 0): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const start = new Date(2000, 0, 1);
  start.setFullYear(year, month - 1, date + after);
  return start;
}

/** The query of the range the URL's query (`search`) asks for: from its first day's start to the start of the day after its last, in local days. */
export function viewQuery(search: string, now = new Date()): { start: string; end: string } {
  const today = `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const { first, last } = rangeDays(parseView(search, today), today);
  return { start: isoOf(localDayStart(first)), end: isoOf(localDayStart(last, 1)) };
}

/** Last 30 days: from the start of today - 30 days to the start of tomorrow, in local days. */
export const last30Query = (now = new Date()) => viewQuery('', now);

/** The URL the API client builds: the query's parameters, then impersonate_affiliate. */
export function callUrl(baseUrl: string, path: string, query: Record<string, string>, impersonated: string | null): string {
  const params = new URLSearchParams(query);
  if (impersonated) params.set('impersonate_affiliate', impersonated);
  const search = params.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

/** Tells `worker` to make the calls of the URL's range (`search`) on the dashboard route `path`; on the home route, to derive its view too. */
export function startCalls(
  worker: Worker,
  baseUrl: string,
  token: string | null,
  impersonated: string | null,
  search: string,
  path: string,
): void {
  const start: EarlyCalls = { baseUrl, token, impersonated, range: viewQuery(search), home: isHome(path), affiliate: routeAffiliate(path) };
  worker.postMessage({ start } satisfies EarlyMessage);
}
