// @vitest-environment node
// Requests the API cannot read: malformed, oversized or non-JSON bodies and garbage in query
// strings and paths answer a 4xx error in Django REST Framework's form, never a 5xx.
import { describe, expect, it } from 'vitest';
import { errorBodySchema } from '../src/api/schemas.ts';
import { expectDetail, expectFieldErrors, NOT_FOUND, NOV_5, useContractApi } from '../tests/utils/api-contract.ts';
import { API, type FixtureUserName } from '../tests/utils/api-server.ts';

const api = useContractApi();
const { call, get, passwordPair, verifiedPair } = api;

describe('request bodies', () => {
  const raw = (path: string, body: string | Uint8Array, contentType?: string, access?: string) =>
    call('POST', path, { raw: body, contentType, access });

  it('answers malformed JSON with {"detail": "JSON parse error - ..."}', async () => {
    expectDetail(await raw('token/', '{"username": "parent",', 'application/json'), 400, /^JSON parse error - /);
    expectDetail(await raw('token/', "{'username': 'parent'}", 'application/json; charset=utf-8'), 400, /^JSON parse error - /);
  });

  it('answers a JSON array, string or null body with non_field_errors', async () => {
    expectFieldErrors(await raw('token/', '[{"username": "parent"}]', 'application/json'), {
      non_field_errors: ['Invalid data. Expected a dictionary, but got list.'],
    });
    expectFieldErrors(await raw('token/refresh/', '"text"', 'application/json'), { non_field_errors: true });
    expectFieldErrors(await raw('affiliates/invites/register/', 'null', 'application/json'), { non_field_errors: true });
  });

  it('answers 413 for a body over 64 KiB, and reads one just under it', async () => {
    const padded = (size: number) => `{"username": "parent", "password": "wrong", "pad": "${'x'.repeat(size - 50)}"}`;
    expectDetail(await raw('token/', padded(64 * 1024 + 10), 'application/json'), 413);
    expectDetail(await raw('token/', padded(64 * 1024 - 100), 'application/json'), 401);
    const access = (await passwordPair('parent')).access;
    expectDetail(await raw('token/verify/', padded(70 * 1024), 'application/json', access), 413);
  });

  it('answers 415 for a body that is not JSON', async () => {
    expectDetail(await raw('token/', 'username=parent&password=x', 'application/x-www-form-urlencoded'), 415);
    expectDetail(await raw('token/', '{"username": "parent", "password": "x"}', 'text/plain'), 415);
    expectDetail(await raw('affiliates/invites/register/', '--x\r\n\r\n--x--', 'multipart/form-data; boundary=x'), 415);
  });

  it('answers 415 for a body without a type, which any web page can post (a Blob of no type), and counts no sign-in', async () => {
    const typeless = new TextEncoder().encode(JSON.stringify({ username: 'parent', password: 'wrong' }));
    for (let attempt = 0; attempt < 6; attempt++) expectDetail(await raw('token/', typeless), 415, 'Unsupported media type "" in request.');
    expect((await api.post('token/', { username: 'parent', password: api.user('parent').password })).status).toBe(200);
  });

  it('answers 404 {"detail":"Not found."} for unknown API paths and missing trailing slashes', async () => {
    for (const path of ['nope/', 'token', 'affiliates', 'payment_events', 'affiliates/invites/', 'api/v2/token/']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ detail: NOT_FOUND });
    }
  });

  describe('garbage at every POST endpoint', () => {
    const BIG = 'x'.repeat(60_000);
    /** Built per test: one body uses the fixtures' valid invite with a password over the maximum. */
    const garbage = (): { body: string | Uint8Array; type?: string }[] => [
      { body: '' },
      { body: '', type: 'application/json' },
      { body: ' \n\t ', type: 'application/json' },
      ...[
        'null',
        'true',
        '0',
        '-1.5e308',
        '"text"',
        '[]',
        '[{}]',
        '[1,2,3]',
        '{',
        '}',
        '{"a":',
        '{"a" 1}',
        'undefined',
        'NaN',
        '\u0000',
        '\uFEFF{}',
        '{}{}',
      ].map((body) => ({ body, type: 'application/json' })),
      { body: '['.repeat(5000) + ']'.repeat(5000), type: 'application/json' },
      {
        body: JSON.stringify({ username: null, password: null, refresh: null, token: null, device_id: null, email: null, invite_id: null }),
        type: 'application/json',
      },
      {
        body: JSON.stringify({ username: 1, password: 2, refresh: 3, token: 4, device_id: 5, email: 6, invite_id: 7 }),
        type: 'application/json',
      },
      {
        body: JSON.stringify({ username: [], password: {}, refresh: [], token: [], device_id: {}, email: [], invite_id: {} }),
        type: 'application/json',
      },
      {
        body: JSON.stringify({
          username: true,
          password: false,
          refresh: true,
          token: false,
          device_id: true,
          email: true,
          invite_id: false,
        }),
        type: 'application/json',
      },
      { body: '{"__proto__": {"username": "parent", "password": "x"}, "constructor": {"prototype": {}}}', type: 'application/json' },
      {
        body: JSON.stringify({
          username: '\ud800',
          password: '\udfff',
          refresh: '\ud800',
          token: '\ud800',
          device_id: '\ud800',
          email: '\ud800@x.y',
          invite_id: '\ud800',
        }),
        type: 'application/json',
      },
      {
        body: JSON.stringify({
          username: BIG,
          password: 'x',
          refresh: BIG,
          token: BIG,
          device_id: BIG,
          email: `${BIG}@x.y`,
          invite_id: 'x',
        }),
        type: 'application/json',
      },
      {
        body: JSON.stringify({
          token: '１２３４５６',
          device_id: "' OR 1=1 --",
          refresh: 'a.b.c',
          email: 'a@b.co',
          password: 'p'.repeat(200),
          invite_id: api.fx.invites.valid,
        }),
        type: 'application/json',
      },
      {
        body: JSON.stringify({ username: 'parent', password: 'wrong-password', email: 'a@b.co', password2: 'x', invite_id: "' OR 1=1 --" }),
        type: 'application/json',
      },
      { body: `{"pad": "${'y'.repeat(70_000)}"}`, type: 'application/json' },
      { body: new Uint8Array([0xff, 0xfe, 0x7b, 0x22, 0x80, 0x22, 0x7d]), type: 'application/json' },
      { body: '{"username": "parent"}', type: 'text/plain' },
      { body: 'username=parent&password=x', type: 'application/x-www-form-urlencoded' },
      { body: '<xml/>', type: 'application/xml' },
      { body: '{"token": "123456"}', type: 'application/vnd.api+json' },
      { body: '{"token": "123456"}', type: 'not a media type' },
    ];

    /** Each POST endpoint with the caller that gets furthest into it; garbage must never succeed or fail with 5xx. */
    const ENDPOINTS: { path: string; as: FixtureUserName | null }[] = [
      { path: 'token/', as: null },
      { path: 'token/refresh/', as: null },
      { path: 'affiliates/invites/register/', as: null },
      { path: 'token/verify/', as: 'parent' },
      { path: 'token/verify/', as: 'child' },
      { path: 'token/send-email/', as: 'parent' },
      { path: '2fa/totp/setup/', as: 'parent' },
      { path: '2fa/totp/confirm/', as: 'fresh' },
      { path: '2fa/email/setup/', as: 'parent' },
      { path: '2fa/email/confirm_setup/', as: 'fresh' },
    ];

    for (const { path, as } of ENDPOINTS) {
      it(`never answers ${path}${as ? ` (as ${as})` : ''} with anything but a 4xx error`, async () => {
        const callers: (string | undefined)[] = as ? [undefined, (await passwordPair(as)).access] : [undefined];
        for (const access of callers) {
          for (const [index, { body, type }] of garbage().entries()) {
            const answer = await raw(path, body, type, access);
            const label = `${path} garbage #${index} ${access ? 'with' : 'without'} a token`;
            expect(answer.status, label).toBeGreaterThanOrEqual(400);
            expect(answer.status, label).toBeLessThan(500);
            expect(() => errorBodySchema.parse(answer.body), label).not.toThrow();
          }
        }
      });
    }
  });
});

describe('garbage in query strings and paths', () => {
  it('never answers the GET endpoints with a 5xx', async () => {
    const { access } = await verifiedPair('admin');
    const starts = [
      '\u0000',
      'x'.repeat(10_000),
      '2026-11-05T00:00:00+99:00',
      '+275760-09-13T00:00:00Z',
      '-000001-01-01T00:00:00Z',
      '2026-02-30',
      'P1D',
      '1e10',
      '[]',
      "' OR 1=1 --",
    ];
    const paths: string[] = [];
    for (const start of starts) {
      for (const path of ['payment_events/', 'connection_fees/']) {
        paths.push(
          `${path}?${new URLSearchParams({ start }).toString()}`,
          `${path}?${new URLSearchParams({ start: NOV_5, end: start }).toString()}`,
        );
      }
    }
    // An unencoded "+" of an offset reads as a space, as in Django.
    paths.push('payment_events/?start=2026-11-05T00:00:00.000+01:00');
    for (const id of ['-1', '0', '1e0', '0x1', '99999999999999999999', '%00', '%E0%A4%A', '..%2F..%2F', "1'%20OR%201=1"]) {
      paths.push(`reports/affiliate/${id}/download/`, `affiliates/invites/${id}/`);
    }
    for (const affiliate of ['%00', 'P1%27--', 'x'.repeat(5000)]) paths.push(`affiliates/?impersonate_affiliate=${affiliate}`);
    for (const path of paths) {
      const response = await api.server.fetch(`${API}/${path}`, { headers: { Authorization: `Bearer ${access}` } });
      expect(response.status, path.slice(0, 80)).toBeLessThan(500);
      const body: unknown = await response.json();
      if (response.status !== 200) expect(() => errorBodySchema.parse(body), path.slice(0, 80)).not.toThrow();
    }
  });
});
