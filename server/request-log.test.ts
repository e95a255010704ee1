// @vitest-environment node
// The request log: one JSON line a request, with its id sent back as X-Request-Id, and nothing
// a reader could sign in or register with. A real server runs the portal's calls (a sign-in with
// a password and TOTP, a refresh, an e-mailed code, an authenticator set up, an invite looked up
// and registered with, a report downloaded, a superuser viewing as an affiliate) and its log is
// searched for every secret those calls carried.
import { afterEach, describe, expect, it } from 'vitest';
import { tokenPairSchema, totpSetupSchema } from '../src/api/schemas.ts';
import { addFixtures, totpCode } from '../tests/utils/api-server.ts';
import { startServer, type RunningServer } from './index.ts';
import { loggedPath, type RequestLogLine } from './request-log.ts';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function startLogged() {
  const lines: string[] = [];
  running = await startServer({ port: 0, databasePath: ':memory:', demo: false, log: (line) => lines.push(line) });
  const server = running;
  const fx = addFixtures(server.db, { now: Date.now() });
  const call = async (method: string, path: string, body?: unknown, access?: string) => {
    const response = await fetch(`${server.url}/api/v2/${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(access ? { Authorization: `Bearer ${access}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      body: response.headers.get('content-type')?.startsWith('application/json') ? await response.json() : await response.arrayBuffer(),
    };
  };
  const pair = (answer: { status: number; body: unknown }) => {
    expect(answer.status).toBe(200);
    return tokenPairSchema.parse(answer.body);
  };
  const newestCode = () => server.db.prepare('SELECT code FROM outbox ORDER BY id DESC LIMIT 1').pluck().get() as string;
  return { server, fx, lines, call, pair, newestCode };
}

const FIELDS = ['time', 'level', 'method', 'path', 'status', 'duration_ms', 'request_id'];

describe('the request log', () => {
  it('writes one JSON line a request, its id sent back as X-Request-Id', async () => {
    const { server, lines } = await startLogged();
    const answers = [
      await fetch(`${server.url}/healthz`),
      await fetch(`${server.url}/api/v2/affiliates/?x=1`),
      await fetch(`${server.url}/nope`),
    ];
    expect(lines).toHaveLength(3);
    const logged = lines.map((line) => JSON.parse(line) as RequestLogLine);
    for (const entry of logged) expect(Object.keys(entry).sort()).toEqual([...FIELDS].sort());
    expect(logged.map(({ method, path, status, level }) => ({ method, path, status, level }))).toEqual([
      { method: 'GET', path: '/healthz', status: 200, level: 'info' },
      { method: 'GET', path: '/api/v2/affiliates/', status: 401, level: 'warn' },
      { method: 'GET', path: '/nope', status: 404, level: 'warn' },
    ]);
    for (const [index, entry] of logged.entries()) {
      expect(new Date(entry.time).toISOString()).toBe(entry.time);
      expect(entry.duration_ms).toBeGreaterThanOrEqual(0);
      expect(entry.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(answers[index]!.headers.get('x-request-id')).toBe(entry.request_id);
    }
    expect(new Set(logged.map((entry) => entry.request_id)).size).toBe(3);
  });

  it("takes no client's X-Request-Id, but a trusted proxy's", async () => {
    const { server } = await startLogged();
    const sent = { headers: { 'X-Request-Id': 'proxy-id-1234' } };
    expect((await fetch(`${server.url}/healthz`, sent)).headers.get('x-request-id')).not.toBe('proxy-id-1234');
    await server.close();
    running = await startServer({ port: 0, databasePath: ':memory:', demo: false, trustProxy: true, log: () => {} });
    expect((await fetch(`${running.url}/healthz`, sent)).headers.get('x-request-id')).toBe('proxy-id-1234');
  });

  it("replaces the id of an invite in a path, the API's and the portal page's", () => {
    const id = '0d3f6c1e-5b7a-4c2d-9e8f-1a2b3c4d5e6f';
    expect(loggedPath(`/api/v2/affiliates/invites/${id}/`)).toBe('/api/v2/affiliates/invites/:inviteId/');
    expect(loggedPath(`/invite/${id}`)).toBe('/invite/:inviteId');
    expect(loggedPath('/api/v2/affiliates/invites/register/')).toBe('/api/v2/affiliates/invites/register/');
    expect(loggedPath('/api/v2/reports/affiliate/2/download/')).toBe('/api/v2/reports/affiliate/2/download/');
  });

  it("keeps no password, token, code, TOTP secret or invite id of the portal's calls", { timeout: 30_000 }, async () => {
    const { fx, lines, call, pair, newestCode } = await startLogged();
    const secrets: string[] = [];
    // Six-digit codes, looked for as whole numbers: a request id's hex digits may hold one by chance.
    const codes: string[] = [];

    // A sign-in with a password and an authenticator code, then a refresh.
    const { parent, child, fresh, admin } = fx.users;
    const partial = pair(await call('POST', 'token/', { username: parent.username, password: parent.password }));
    const totp = await totpCode(parent.totpSecret!, Date.now());
    const verified = pair(await call('POST', 'token/verify/', { token: totp }, partial.access));
    const refreshed = pair(await call('POST', 'token/refresh/', { refresh: verified.refresh }));
    codes.push(totp);
    secrets.push(parent.password, parent.totpSecret!, partial.access, verified.access, verified.refresh, refreshed.access);

    // A report downloaded.
    const report = await call('GET', `reports/affiliate/${fx.reports.p1November.id}/download/`, undefined, refreshed.access);
    expect(report.status).toBe(200);

    // An e-mailed code sent and verified.
    const childPartial = pair(await call('POST', 'token/', { username: child.username, password: child.password }));
    expect((await call('POST', 'token/send-email/', undefined, childPartial.access)).status).toBe(200);
    const emailed = newestCode();
    const childPair = pair(await call('POST', 'token/verify/', { token: emailed }, childPartial.access));
    codes.push(emailed);
    secrets.push(child.password, childPartial.access, childPair.access, childPair.refresh);

    // An authenticator set up: its secret comes in an answer.
    const freshPartial = pair(await call('POST', 'token/', { username: fresh.username, password: fresh.password }));
    const setup = totpSetupSchema.parse((await call('POST', '2fa/totp/setup/', undefined, freshPartial.access)).body);
    const freshSecret = new URL(setup.qr_url).searchParams.get('secret')!;
    const freshCode = await totpCode(freshSecret, Date.now());
    pair(await call('POST', '2fa/totp/confirm/', { token: freshCode, device_id: setup.device_id }, freshPartial.access));
    codes.push(freshCode);
    secrets.push(fresh.password, freshSecret);

    // An invite looked up and registered with.
    const invite = fx.invites.valid;
    expect((await call('GET', `affiliates/invites/${invite}/`)).status).toBe(200);
    const newcomer = { email: 'newcomer@fixtures.example', password: 'Quiet-harbour-lanterns-42', invite_id: invite };
    const registered = await call('POST', 'affiliates/invites/register/', newcomer);
    expect(registered.status).toBe(201);
    const newcomerPair = tokenPairSchema.parse((registered.body as { tokens: unknown }).tokens);
    secrets.push(invite, newcomer.email, newcomer.password, newcomerPair.access, newcomerPair.refresh);

    // A superuser viewing as an affiliate: the query string is left out.
    const adminPartial = pair(await call('POST', 'token/', { username: admin.username, password: admin.password }));
    const adminCode = await totpCode(admin.totpSecret!, Date.now());
    const adminPair = pair(await call('POST', 'token/verify/', { token: adminCode }, adminPartial.access));
    expect((await call('GET', 'affiliates/?impersonate_affiliate=C1', undefined, adminPair.access)).status).toBe(200);
    codes.push(adminCode);
    secrets.push(admin.password, admin.totpSecret!, adminPair.access, adminPair.refresh, 'impersonate_affiliate');

    const log = lines.join('\n');
    expect(log).not.toContain('eyJ');
    for (const secret of secrets) expect(log, secret).not.toContain(secret);
    for (const code of codes) expect(log, code).not.toMatch(new RegExp(`(?<![0-9a-f])${code}(?![0-9a-f])`));
    for (const line of lines) expect(Object.keys(JSON.parse(line) as object).sort()).toEqual([...FIELDS].sort());
    expect(lines).toHaveLength(15);
    expect(log).toContain('/api/v2/affiliates/invites/:inviteId/');
  });
});
