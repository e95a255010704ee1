// @vitest-environment node
// The server settings read from the environment: TRUST_PROXY.
import { afterEach, describe, expect, it } from 'vitest';
import { readServerConfig } from './server-config.ts';

const saved = process.env.TRUST_PROXY;
afterEach(() => {
  if (saved === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = saved;
});

describe('readServerConfig', () => {
  it('trusts a proxy’s X-Forwarded-For only with TRUST_PROXY=1', () => {
    delete process.env.TRUST_PROXY;
    expect(readServerConfig(8080).trustProxy).toBe(false);
    process.env.TRUST_PROXY = '0';
    expect(readServerConfig(8080).trustProxy).toBe(false);
    process.env.TRUST_PROXY = '1';
    expect(readServerConfig(8080).trustProxy).toBe(true);
  });
});
