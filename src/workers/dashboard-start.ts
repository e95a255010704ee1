// The range's three calls, made from the main thread as soon as the dashboard is known to open
// (a small chunk that dashboard-worker.ts loads), while the worker's code is still loading:
// the worker is told of each call (`expect`), then handed its answer's bytes (`answer`), which
// its API client takes as the answer to the same URL asked with the same token
// (dashboard-service.ts). The range is the one the URL's query asks for (src/domain/view-query.ts),
// Last 30 days without one. No luxon here: the query is worked out with Date, as luxon writes it;
// should the two ever differ, the worker just makes its own call. The answer's body
// goes over as a stream as soon as its headers are in, so that the worker reads the list while
// it arrives; a browser that cannot transfer streams sends its bytes once they are all in. On the
// home route the worker is also told the view the calls are for (`warm`), with the zone and locale
// luxon takes by default, so that it derives that dashboard as soon as they are in.

/** A call the main thread made for the worker: the URL and token it went out with. */
export interface Expected {
  url: string;
  token: string | null;
}

/** What that call was answered: the response, or a network failure. */
export type Answer = Expected &
  (
    | { status: number; statusText: string; headers: [string, string][]; body: ReadableStream<Uint8Array> | ArrayBuffer | null }
    | { failed: true }
  );

import { parseView, rangeDays } from '../domain/view-query.ts';
import type { WarmRequest } from './dashboard-service.ts';

/** What the main thread posts to the worker before the worker's code is up. */
export interface EarlyMessage {
  expect?: Expected;
  answer?: Answer;
  warm?: WarmRequest;
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

/**
 * Makes the calls of the URL's range (affiliates, payment events, connection fees) for `worker`,
 * telling it of each at once; on the home route (`home`), also of the view they are for.
 */
export function startCalls(
  worker: Worker,
  baseUrl: string,
  token: string | null,
  impersonated: string | null,
  search: string,
  home = false,
): void {
  const range = viewQuery(search);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  for (const [path, query] of [
    ['affiliates/', {}],
    ['payment_events/', range],
    ['connection_fees/', range],
  ] as const) {
    const url = callUrl(baseUrl, path, query, impersonated);
    worker.postMessage({ expect: { url, token } satisfies Expected });
    void fetch(url, { headers })
      .then(async (response) => {
        const answer = { url, token, status: response.status, statusText: response.statusText, headers: [...response.headers] };
        try {
          if (response.body) return worker.postMessage({ answer: { ...answer, body: response.body } }, [response.body]);
        } catch {
          // Streams cannot be transferred here: the bytes follow once they are in.
        }
        const body = await response.arrayBuffer();
        worker.postMessage({ answer: { ...answer, body } }, [body]);
      })
      .catch(() => worker.postMessage({ answer: { url, token, failed: true } satisfies Answer }));
  }
  if (home) {
    // The zone and locale luxon's dates take when none is given: the view's range has them.
    const { timeZone: zone, locale } = new Intl.DateTimeFormat().resolvedOptions();
    worker.postMessage({ warm: { baseUrl, token, impersonated, range: { ...range, zone, locale } } } satisfies EarlyMessage);
  }
}
