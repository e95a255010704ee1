// @vitest-environment node
// The Authorization header as a DRF SimpleJWT back end reads it: whitespace-separated, exactly
// two parts, the scheme 'Bearer' as configured (case-sensitive).
import { describe, expect, it } from 'vitest';
import { callApi } from '../tests/utils/api-calls.ts';
import { signIn, useFixtureServer } from '../tests/utils/api-server.ts';

const api = useFixtureServer();

const withHeader = (authorization: string) =>
  callApi(api.server, 'GET', 'affiliates/', undefined, { headers: { Authorization: authorization } });

describe('the Authorization header', () => {
  it('refuses the lower-case scheme and other schemes with 401', async () => {
    const { access } = await signIn(api.server, api.fx.users.parent.username, api.fx.users.parent.password);
    expect((await withHeader(`Bearer ${access}`)).status).toBe(200);
    for (const scheme of ['bearer', 'BEARER', 'JWT', 'Token']) {
      const answer = await withHeader(`${scheme} ${access}`);
      expect(answer.status, scheme).toBe(401);
      expect(answer.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    }
  });

  it('refuses a header of more or fewer than two parts with 401', async () => {
    const { access } = await signIn(api.server, api.fx.users.parent.username, api.fx.users.parent.password);
    for (const header of [`Bearer ${access} extra`, 'Bearer']) {
      const answer = await withHeader(header);
      expect(answer.status, header.slice(0, 12)).toBe(401);
      expect(answer.body).toEqual({ detail: 'Authorization header must contain two space-delimited values' });
    }
  });

  it('names the Bearer scheme in WWW-Authenticate on every 401, as HTTP asks and DRF does', async () => {
    const { access } = await signIn(api.server, api.fx.users.parent.username, api.fx.users.parent.password);
    const answers = [
      await callApi(api.server, 'GET', 'affiliates/'),
      await withHeader(`Token ${access}`),
      await withHeader(`Bearer ${access.slice(0, -4)}AAAA`),
      await callApi(api.server, 'POST', 'token/', { username: api.fx.users.parent.username, password: 'wrong password' }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('WWW-Authenticate')).toBe('Bearer realm="api"');
    }
    expect((await withHeader(`Bearer ${access}`)).headers.get('WWW-Authenticate')).toBeNull();
  });

  it('takes any whitespace between the two parts, as a split on whitespace does', async () => {
    const { access } = await signIn(api.server, api.fx.users.parent.username, api.fx.users.parent.password);
    expect((await withHeader(`Bearer  ${access}`)).status).toBe(200);
    expect((await withHeader(`Bearer\t${access}`)).status).toBe(200);
  });
});
