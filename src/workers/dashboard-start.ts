// The default range's three calls, made from the main thread as soon as the dashboard is known to
// open (a small chunk that dashboard-worker.ts loads), while the worker's code is still loading:
// the worker is told of each call (`expect`), then handed its answer's bytes (`answer`), which
// its API client takes as the answer to the same URL asked with the same token
// (dashboard-service.ts). No luxon here: the Last 30 days query is worked out with Date, as luxon
// writes it; should the two ever differ, the worker just makes its own call. The answer's body
// goes over as a stream as soon as its headers are in, so that the worker reads the list while
// it arrives; a browser that cannot transfer streams sends its bytes once they are all in.

/** A call the main thread made for the worker: the URL and token it went out with. */
export interface Expected {
  url: string;
  token: string | null;
}

/** What that call was answered: the response, or a network failure. */
export type Answer = Expected &
  ({ status: number; statusText: string; headers: [string, string][]; body: ReadableStream<Uint8Array> | ArrayBuffer | null } | { failed: true });

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

/**
 * The system's time zone. Temporal answers at once; Intl loads its date formats first (some 20 ms
 * here, before any call could go out).
 */
function systemZone(): string {
  const temporal = (globalThis as { Temporal?: { Now: { timeZoneId(): string } } }).Temporal;
  return temporal?.Now.timeZoneId() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Last 30 days: from the start of today - 30 days to the start of tomorrow, in local days. */
export function last30Query(now = new Date(), zone = systemZone()): { start: string; end: string } {
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

/** Makes the default range's calls (affiliates, payment events, connection fees) for `worker`, telling it of each at once. */
export function startCalls(worker: Worker, baseUrl: string, token: string | null, impersonated: string | null): void {
  const range = last30Query();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  for (const [path, query] of [['affiliates/', {}], ['payment_events/', range], ['connection_fees/', range]] as const) {
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
}
