// @vitest-environment node
// GET /healthz: 200 {"status":"ok"} while the database answers, 503 {"status":"unavailable"} when
// it does not; never cached, with the security headers of every answer, and not the portal's page.
import { describe, expect, it } from 'vitest';
import { useServedDist } from '../tests/utils/served-dist.ts';
import { isPageRoute } from './index.ts';
import { headersFileText, policyDirectives, portalHeaderRules, securityHeadersOf } from './security-policy.ts';

const INDEX_HTML = '<!doctype html><html><head></head><body><div id="root"></div></body></html>';
const { serve } = useServedDist('health', { 'index.html': INDEX_HTML, _headers: headersFileText(portalHeaderRules(policyDirectives())) });

describe('GET /healthz', () => {
  it('answers {"status":"ok"} while the database answers, without signing in', async () => {
    const { base } = await serve();
    const answer = await fetch(`${base}/healthz`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 {"status":"unavailable"} when the database does not', async () => {
    const { base, server } = await serve();
    server.db.close();
    const answer = await fetch(`${base}/healthz`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ status: 'unavailable' });
  });

  it('is never cached and carries the security headers of every answer', async () => {
    const { base } = await serve();
    const health = await fetch(`${base}/healthz`);
    expect(health.headers.get('cache-control')).toBe('no-store');
    for (const [name, value] of securityHeadersOf(policyDirectives())) expect(health.headers.get(name), name).toBe(value);
  });

  it('is not a route of the portal', async () => {
    expect(isPageRoute('/healthz')).toBe(false);
    expect(isPageRoute('/healthz/')).toBe(false);
    const { base } = await serve();
    expect(await (await fetch(`${base}/healthz/`)).text()).not.toContain('<div id="root">');
  });
});
