import { describe, expect, it } from 'vitest';
import { makeStoredToken } from '../../tests/utils/tokens.ts';
import { TOKEN_STORAGE_KEY } from '../domain/auth-token.ts';
import { createTokenStorage } from './token-storage.ts';

describe('the stored token record', () => {
  it('is localStorage["auth_token"] = JSON {"username","access","refresh"}, in that order, whatever order the token came in', () => {
    localStorage.clear();
    const storage = createTokenStorage(localStorage, window);
    const { username, access, refresh } = makeStoredToken();
    // As a password sign-in makes it: the answer's tokens, then the username.
    storage.write({ access, refresh, username });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe(JSON.stringify({ username, access, refresh }));
    expect(Object.keys(JSON.parse(localStorage.getItem(TOKEN_STORAGE_KEY) ?? '{}') as object)).toEqual(['username', 'access', 'refresh']);
    expect(storage.read()).toEqual({ username, access, refresh });
    storage.write(null);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });
});
