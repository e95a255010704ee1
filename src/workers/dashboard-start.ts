// The dashboard's data worker and the default range's three calls, started as soon as the
// dashboard is known to open (features/dashboard/dashboard-preload.ts loads this small chunk):
// the calls go out from the main thread at once, while the worker's code is still loading, and
// each answer's bytes are handed to the worker (dashboard-worker.ts). No luxon here: the Last 30
// days query is worked out with Date, as luxon writes it; should the two ever differ, the page's
// own calls just go out again.
import { absoluteBase, canUseWorker, dashboardWorker, type Answer, type Expected } from './dashboard-worker.ts';

export interface WorkerSession {
  baseUrl: string;
  fetch: unknown;
  accessToken(): string | null | Promise<string | null>;
}

const pad = (value: number, length = 2) => String(Math.abs(value)).padStart(length, '0');

/** luxon's toISO() of a local time in `zone`: 'Z' for the zones luxon reads as UTC, else the offset. */
function isoOf(date: Date, zone: string): string {
  const offset = -date.getTimezoneOffset();
  const zoneText = /^(utc|gmt)$/i.test(zone) && offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}${zoneText}`
  );
}

/** Last 30 days (decisions.md section 3): from today's start - 30 days to tomorrow's start, local days. */
export function last30Query(now = new Date(), zone = Intl.DateTimeFormat().resolvedOptions().timeZone): { start: string; end: string } {
  const [year, month, day] = [now.getFullYear(), now.getMonth(), now.getDate()];
  return { start: isoOf(new Date(year, month, day - 30), zone), end: isoOf(new Date(year, month, day + 1), zone) };
}

/** The URL the API client builds: the query's parameters, then impersonate_affiliate. */
export function callUrl(baseUrl: string, path: string, query: Record<string, string>, impersonated: string | null): string {
  const params = new URLSearchParams(query);
  if (impersonated) params.set('impersonate_affiliate', impersonated);
  const search = params.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

/** Starts the worker and the default range's calls (affiliates, payment events, connection fees). */
export function startDashboardWorker(session: WorkerSession, impersonated: string | null): void {
  if (!canUseWorker(session.fetch)) return;
  const target = dashboardWorker();
  const baseUrl = absoluteBase(session.baseUrl);
  const range = last30Query();
  void Promise.resolve(session.accessToken()).then((token) => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    for (const [path, query] of [['affiliates/', {}], ['payment_events/', range], ['connection_fees/', range]] as const) {
      const url = callUrl(baseUrl, path, query, impersonated);
      target.postMessage({ expect: { url, token } satisfies Expected });
      void fetch(url, { headers })
        .then(
          async (response): Promise<Answer> => ({
            url,
            token,
            status: response.status,
            statusText: response.statusText,
            headers: [...response.headers],
            body: await response.arrayBuffer(),
          }),
        )
        .catch((): Answer => ({ url, token, failed: true }))
        .then((answer) => target.postMessage({ answer }, 'body' in answer ? [answer.body] : []));
    }
  });
}
