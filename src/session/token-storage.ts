// The auth token record ({username, access, refresh}) in localStorage under "auth_token", and the
// other tabs' changes to it (the storage event), so that logout in one tab logs out all.
import { parseStoredToken, TOKEN_STORAGE_KEY, type StoredToken } from '../domain/auth-token.ts';

export interface TokenStorage {
  read(): StoredToken | null;
  write(token: StoredToken | null): void;
  /** Calls back when another tab writes or clears the record; answers the unsubscribe. */
  subscribe(listener: (token: StoredToken | null) => void): () => void;
}

export function createTokenStorage(storage: Storage, target: Pick<Window, 'addEventListener' | 'removeEventListener'>): TokenStorage {
  return {
    read() {
      try {
        return parseStoredToken(storage.getItem(TOKEN_STORAGE_KEY));
      } catch {
        return null; // storage unavailable (privacy mode): signed out
      }
    },
    write(token) {
      try {
        // The record's fields in their documented order, whatever order the token came in.
        if (token)
          storage.setItem(TOKEN_STORAGE_KEY, JSON.stringify({ username: token.username, access: token.access, refresh: token.refresh }));
        else storage.removeItem(TOKEN_STORAGE_KEY);
      } catch {
        // Storage full or unavailable: the session still lives in memory for this tab.
      }
    },
    subscribe(listener) {
      const onStorage = (event: StorageEvent) => {
        if (event.key === TOKEN_STORAGE_KEY || event.key === null) listener(parseStoredToken(event.newValue));
      };
      target.addEventListener('storage', onStorage);
      return () => target.removeEventListener('storage', onStorage);
    },
  };
}
