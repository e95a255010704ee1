// @vitest-environment node
// Paths the API does not have (404) and known paths asked with another method (405 with Allow).
import { describe, expect, it } from 'vitest';
import { expectDetail, useContractApi } from '../tests/utils/api-contract.ts';
import { API } from '../tests/utils/api-server.ts';

const api = useContractApi();
const { get, post, verifiedPair } = api;

describe('unknown paths and methods', () => {
  it('answers a path the API does not have with 404', async () => {
    expectDetail(await get('no_such_endpoint/'), 404, 'Not found.');
    expectDetail(await get('token/extra/'), 404, 'Not found.');
  });

  it('answers a known path asked with another method with 405 and the allowed methods, as DRF does', async () => {
    const { access } = await verifiedPair('parent');
    const wrongGet = await api.server.fetch(`${API}/token/`);
    expect(wrongGet.status).toBe(405);
    expect(wrongGet.headers.get('Allow')).toBe('POST, OPTIONS');
    expect(await wrongGet.json()).toEqual({ detail: 'Method "GET" not allowed.' });
    expectDetail(await post('affiliates/', {}, access), 405, 'Method "POST" not allowed.');
    const wrongDelete = await api.server.fetch(`${API}/reports/affiliate/1/download/`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${access}` },
    });
    expect(wrongDelete.status).toBe(405);
    expect(wrongDelete.headers.get('Allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers OPTIONS, which Allow names, with the allowed methods and no body; a GET path takes HEAD too', async () => {
    for (const [path, allow] of [
      ['token/', 'POST, OPTIONS'],
      ['affiliates/', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const answer = await api.server.fetch(`${API}/${path}`, { method: 'OPTIONS' });
      expect(answer.status, path).toBe(204);
      expect(answer.headers.get('Allow'), path).toBe(allow);
      expect(await answer.text()).toBe('');
    }
    const { access } = await verifiedPair('parent');
    const head = await api.server.fetch(`${API}/affiliates/`, { method: 'HEAD', headers: { Authorization: `Bearer ${access}` } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const unknown = await api.server.fetch(`${API}/no_such_endpoint/`, { method: 'OPTIONS' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: 'Not found.' });
  });
});
