import { describe, expect, it, vi } from 'vitest';
import { RELEASE } from './releasable.ts';
import { ApiError } from './client.ts';
import { createDashboardData, type SessionCalls } from './dashboard-data.ts';

const range = { start: '2026-10-24T00:00:00.000Z', end: '2026-11-24T00:00:00.000Z' };

function session(answer: () => Response, token: string | Promise<string> = 'token-1') {
  const asked: string[] = [];
  const calls: SessionCalls = {
    baseUrl: 'http://portal.test/api/v2/',
    fetch: (_input, init) => {
      asked.push(new Headers(init?.headers).get('Authorization') ?? '');
      return Promise.resolve(answer());
    },
    accessToken: vi.fn(() => token),
    unauthorized: vi.fn(),
  };
  return { calls, asked };
}

describe("the dashboard's data calls on the main thread", () => {
  it('go out with the token the session gives, after its refresh when it makes the call wait', async () => {
    const { calls, asked } = session(() => new Response('[]', { status: 200 }), Promise.resolve('refreshed-token'));
    const handle = await createDashboardData(calls).list('payment_events', range, null);
    expect(handle).toMatchObject({ list: 'payment_events', count: 0 });
    expect(asked).toEqual(['Bearer refreshed-token']);
    expect(calls.unauthorized).not.toHaveBeenCalled();
  });

  it('end the session on a 401, naming the token that was refused, and fail with the usual text', async () => {
    const { calls } = session(() => new Response('{"detail":"Token is expired"}', { status: 401, statusText: 'Unauthorized' }));
    const error: unknown = await createDashboardData(calls)
      .list('connection_fees', range, null)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'HTTP Error: 401: Unauthorized',
      kind: 'http',
      status: 401,
      body: { detail: 'Token is expired' },
    });
    expect(calls.unauthorized).toHaveBeenCalledWith('token-1');
  });

  it('fail with the ApiError the client throws for a 5xx, and keep the session', async () => {
    const { calls } = session(() => new Response('<h1>502</h1>', { status: 502, statusText: 'Bad Gateway' }));
    const error: unknown = await createDashboardData(calls)
      .affiliates(null)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'HTTP Error: 502: Bad Gateway', kind: 'http', status: 502 });
    expect(calls.unauthorized).not.toHaveBeenCalled();
  });

  it('hand the cache a handle that lets the list go once, when the cache drops it', async () => {
    const { calls } = session(() => new Response('[]', { status: 200 }));
    const data = createDashboardData(calls);
    const events = await data.list('payment_events', range, null);
    const fees = await data.list('connection_fees', range, null);
    const request = {
      events: events.id,
      fees: fees.id,
      affiliates: [],
      affiliateFilter: null,
      range: { ...range, zone: 'UTC', locale: 'en-US' },
      selectedDay: null,
    };
    expect((await data.view(request)).stats.numberOfSales).toBe(0);

    events[RELEASE]();
    events[RELEASE]();
    await expect(data.view({ ...request, selectedDay: '2026-11-01' })).rejects.toThrow(
      "The dashboard's payment events are no longer loaded",
    );
    // A view answered before stays at hand.
    expect((await data.view(request)).stats.numberOfSales).toBe(0);
  });
});
