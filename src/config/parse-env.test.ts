import { describe, expect, it } from 'vitest';
import { parseEnv } from './parse-env.ts';

describe('parseEnv', () => {
  it('uses the defaults of decisions.md when nothing is set', () => {
    expect(parseEnv({})).toEqual({
      apiBaseUrl: '/api/v2/',
      gtmId: undefined,
      publicSiteUrl: 'https://www.example.com',
      currency: 'USD',
    });
  });

  it('treats blank values as unset', () => {
    const env = parseEnv({
      VITE_API_BASE_URL: '',
      VITE_GTM_ID: '  ',
      VITE_PUBLIC_SITE_URL: '',
      VITE_CURRENCY: '',
    });

    expect(env).toEqual(parseEnv({}));
  });

  it('accepts valid values, trimming surrounding spaces', () => {
    const env = parseEnv({
      VITE_API_BASE_URL: ' https://api.example.org/v2/ ',
      VITE_GTM_ID: 'GTM-ABC123',
      VITE_PUBLIC_SITE_URL: 'https://partners.example.org',
      VITE_CURRENCY: 'EUR',
    });

    expect(env).toEqual({
      apiBaseUrl: 'https://api.example.org/v2/',
      gtmId: 'GTM-ABC123',
      publicSiteUrl: 'https://partners.example.org',
      currency: 'EUR',
    });
  });

  it('ends the API base with exactly one slash, so paths can be appended', () => {
    expect(parseEnv({ VITE_API_BASE_URL: '/api/v2' }).apiBaseUrl).toBe('/api/v2/');
    expect(parseEnv({ VITE_API_BASE_URL: '/api/v2/' }).apiBaseUrl).toBe('/api/v2/');
    expect(parseEnv({ VITE_API_BASE_URL: 'http://localhost:8080/api/v2' }).apiBaseUrl).toBe('http://localhost:8080/api/v2/');
  });

  it('removes trailing slashes from the public site URL', () => {
    expect(parseEnv({ VITE_PUBLIC_SITE_URL: 'https://www.example.org/' }).publicSiteUrl).toBe('https://www.example.org');
    expect(parseEnv({ VITE_PUBLIC_SITE_URL: 'https://example.org/travel//' }).publicSiteUrl).toBe('https://example.org/travel');
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(parseEnv({}))).toBe(true);
  });

  it.each([
    ['VITE_API_BASE_URL', 'api/v2/', 'must be a path starting with "/" or an absolute http(s) URL'],
    ['VITE_API_BASE_URL', 'ftp://files.example.org/', 'must be a path starting with "/"'],
    ['VITE_GTM_ID', 'gtm-abc123', 'must be "GTM-" followed by capital letters or digits'],
    ['VITE_GTM_ID', 'UA-12345', 'must be "GTM-" followed by capital letters or digits'],
    ['VITE_PUBLIC_SITE_URL', 'www.example.org', 'must be an absolute http(s) URL'],
    ['VITE_PUBLIC_SITE_URL', 'mailto:info@example.org', 'must be an absolute http(s) URL'],
    ['VITE_CURRENCY', 'usd', 'must be a currency code of 3 capital letters'],
    ['VITE_CURRENCY', 'EURO', 'must be a currency code of 3 capital letters'],
  ])('rejects %s=%j with a message naming the variable and the value', (name, value, problem) => {
    expect(() => parseEnv({ [name]: value })).toThrow(`${name} ${problem}`);
    expect(() => parseEnv({ [name]: value })).toThrow(`(got ${JSON.stringify(value)})`);
  });

  it('lists every wrong variable in one error', () => {
    expect(() => parseEnv({ VITE_GTM_ID: 'nope', VITE_CURRENCY: 'dollars' })).toThrow(
      [
        'Invalid configuration in import.meta.env:',
        '- VITE_GTM_ID must be "GTM-" followed by capital letters or digits (got "nope")',
        '- VITE_CURRENCY must be a currency code of 3 capital letters (got "dollars")',
      ].join('\n'),
    );
  });

  it('reports a value of the wrong type instead of crashing', () => {
    expect(() => parseEnv({ VITE_CURRENCY: 840 })).toThrow(/VITE_CURRENCY .*\(got 840\)/);
  });
});
