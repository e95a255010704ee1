import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { ApiError, createApiClient, httpErrorText, messages, throttledSeconds, type ApiClientOptions } from './client.ts';

/** A fetch that records each request and answers with the next of `answers`. */
function recordingFetch(...answers: (Response | Error)[]) {
  const requests: Request[] = [];
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    requests.push(new Request(new URL(url, 'http://portal.test'), init));
    const answer = answers.shift() ?? new Response('{}');
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, requests };
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { ...init, headers: { 'Content-Type': 'application/json' } });

function client(options: Partial<ApiClientOptions> & { fetch: typeof fetch }) {
  return createApiClient({ baseUrl: '/api/v2/', ...options });
}

const pair = z.object({ access: z.string(), refresh: z.string() });

describe('the API client', () => {
  it('appends paths to the v2 base and sends the bearer token on authenticated calls', async () => {
    const { fetch, requests } = recordingFetch(json([]));
    await client({ fetch, getAccessToken: () => 'access-1' }).request('affiliates/', { schema: z.array(z.unknown()) });
    expect(requests[0]?.url).toBe('http://portal.test/api/v2/affiliates/');
    expect(requests[0]?.headers.get('Authorization')).toBe('Bearer access-1');
  });

  it('sends no token on public calls', async () => {
    const { fetch, requests } = recordingFetch(json({ access: 'a', refresh: 'r' }));
    await client({ fetch, getAccessToken: () => 'access-1' }).request('token/', {
      method: 'POST',
      auth: false,
      body: { username: 'u', password: 'p' },
      schema: pair,
    });
    expect(requests[0]?.headers.get('Authorization')).toBeNull();
    expect(requests[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(await requests[0]?.json()).toEqual({ username: 'u', password: 'p' });
  });

  it('adds impersonate_affiliate to every authenticated request, GET and POST alike', async () => {
    const { fetch, requests } = recordingFetch(json([]), json({}));
    const api = client({ fetch, getAccessToken: () => 't', getImpersonatedAffiliate: () => 'AFF-100' });
    await api.request('payment_events/', {
      query: { start: '2026-11-01T00:00:00.000+01:00', end: undefined },
      schema: z.array(z.unknown()),
    });
    await api.request('token/send-email/', { method: 'POST' });
    const first = new URL(requests[0]?.url ?? '');
    expect(first.searchParams.get('start')).toBe('2026-11-01T00:00:00.000+01:00');
    expect(first.searchParams.has('end')).toBe(false);
    expect(first.searchParams.get('impersonate_affiliate')).toBe('AFF-100');
    expect(new URL(requests[1]?.url ?? '').searchParams.get('impersonate_affiliate')).toBe('AFF-100');
  });

  it("says 'Forbidden: You do not have permission to access this resource.' on 403", async () => {
    const { fetch } = recordingFetch(json({ detail: 'nope' }, { status: 403, statusText: 'Forbidden' }));
    await expect(client({ fetch }).request('affiliates/')).rejects.toThrow(messages.forbidden);
  });

  it("says 'HTTP Error: {status}: {statusText}' on other failures and keeps the server's error body", async () => {
    const { fetch } = recordingFetch(
      json({ email: ['A user with that email already exists.', 'Second.'] }, { status: 400, statusText: 'Bad Request' }),
    );
    const error = await client({ fetch })
      .request('affiliates/invites/register/', { method: 'POST' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('HTTP Error: 400: Bad Request');
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).fieldErrors()).toEqual({ email: 'A user with that email already exists., Second.' });
  });

  it.each([
    [503, 'HTTP Error: 503: Service Unavailable'],
    [500, 'HTTP Error: 500: Internal Server Error'],
    [418, "HTTP Error: 418: I'm a Teapot"],
    [599, 'HTTP Error: 599'],
  ])('says the standard reason phrase of %i when the answer has no status text (HTTP/2)', async (status, text) => {
    const { fetch } = recordingFetch(new Response('', { status, statusText: '' }));
    await expect(client({ fetch }).request('affiliates/')).rejects.toThrow(new ApiError(text, 'http', status));
  });

  it('never leaves a dangling colon: a status without a text stands alone', () => {
    expect(httpErrorText(599, '')).toBe('HTTP Error: 599');
    expect(httpErrorText(502, 'Bad Gateway')).toBe('HTTP Error: 502: Bad Gateway');
  });

  it('turns a response that does not match its schema into an error naming the field, not a crash', async () => {
    const { fetch } = recordingFetch(json({ access: 42 }));
    const error = await client({ fetch })
      .request('token/', { schema: pair })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('schema');
    expect((error as ApiError).message).toMatch(/^Invalid response from token\/: access: /);
  });

  it('turns a body that is not JSON into a schema error', async () => {
    const { fetch } = recordingFetch(new Response('<html>', { status: 200 }));
    await expect(client({ fetch }).request('affiliates/', { schema: pair })).rejects.toMatchObject({ kind: 'schema' });
  });

  it('reports a network failure as such', async () => {
    const { fetch } = recordingFetch(new TypeError('Failed to fetch'));
    await expect(client({ fetch }).request('affiliates/')).rejects.toMatchObject({ kind: 'network', message: messages.network });
  });

  it('after a 401 tells the session, with the refused token, and does not try again', async () => {
    const { fetch, requests } = recordingFetch(json({ detail: 'revoked' }, { status: 401, statusText: 'Unauthorized' }));
    const onUnauthorized = vi.fn();
    const api = client({ fetch, getAccessToken: () => 'access-1', onUnauthorized });
    await expect(api.request('affiliates/')).rejects.toMatchObject({ status: 401, message: 'HTTP Error: 401: Unauthorized' });
    expect(onUnauthorized).toHaveBeenCalledExactlyOnceWith('access-1');
    expect(requests).toHaveLength(1);
  });

  it('does not end the session over a 401 of a public call (wrong password)', async () => {
    const { fetch } = recordingFetch(json({ detail: 'No active account' }, { status: 401, statusText: 'Unauthorized' }));
    const onUnauthorized = vi.fn();
    await expect(client({ fetch, onUnauthorized }).request('token/', { method: 'POST', auth: false })).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('waits for the token the session gives (after a refresh) before the call goes out', async () => {
    const { fetch, requests } = recordingFetch(json([]));
    let give = (_token: string) => {};
    const refreshed = new Promise<string>((resolve) => {
      give = resolve;
    });
    const call = client({ fetch, getAccessToken: () => refreshed }).request('affiliates/', { schema: z.array(z.unknown()) });
    await Promise.resolve();
    expect(requests).toHaveLength(0);
    give('access-2');
    await expect(call).resolves.toEqual([]);
    expect(requests.map((r) => r.headers.get('Authorization'))).toEqual(['Bearer access-2']);
  });

  it('downloads files as blobs through the same authentication', async () => {
    const { fetch, requests } = recordingFetch(new Response(new Uint8Array([80, 75, 3, 4])));
    const blob = await client({ fetch, getAccessToken: () => 't' }).blob('reports/affiliate/7/download/');
    expect(blob.size).toBe(4);
    expect(requests[0]?.headers.get('Authorization')).toBe('Bearer t');
  });

  it("keeps a throttled answer's Retry-After in seconds, as DRF sends it", async () => {
    const drf = { detail: 'Request was throttled. Expected available in 896 seconds.' };
    const failureOf = async (headers: Record<string, string>) => {
      const { fetch } = recordingFetch(
        new Response(JSON.stringify(drf), { status: 429, headers: { 'Content-Type': 'application/json', ...headers } }),
      );
      return client({ fetch })
        .request('token/verify/', { method: 'POST' })
        .catch((error: unknown) => error);
    };
    const inSeconds = await failureOf({ 'Retry-After': '120' });
    expect(inSeconds).toMatchObject({ status: 429, retryAfter: 120 });
    expect(throttledSeconds(inSeconds)).toBe(120);
    // Anything else (a date, nothing) leaves the wait to what the call's texts read (two-factor.ts).
    expect(await failureOf({ 'Retry-After': new Date(Date.now() + 90_000).toUTCString() })).toMatchObject({ retryAfter: null });
    expect(await failureOf({})).toMatchObject({ status: 429, retryAfter: null });
    expect(throttledSeconds(new ApiError('Invalid TOTP code. Please try again.', 'http', 400, null, 30))).toBeNull();
  });
});
