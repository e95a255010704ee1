// The auth token record ({username, access, refresh}) in localStorage under "auth_token", and the
// other tabs' changes to it (the storage event), so that logout in one tab logs out all. Beside it,
// under a key of its own, the offset of the server's clock that the tokens taught
// (src/domain/server-clock.ts): restored when the storage is opened, written with each token, and
// followed when another tab writes it; a sign-out clears both.
import { parseStoredToken, TOKEN_STORAGE_KEY, type StoredToken } from '../domain/auth-token.ts';
import { SERVER_CLOCK_KEY, serverClock } from '../domain/server-clock.ts';

export interface TokenStorage {
  read(): StoredToken | null;
  write(token: StoredToken | null): void;
  /** Calls back when another tab writes or clears the record; answers the unsubscribe. */
  subscribe(listener: (token: StoredToken | null) => void): () => void;
}

export function createTokenStorage(storage: Storage, target: Pick<Window, 'addEventListener' | 'removeEventListener'>): TokenStorage {
  try {
    serverClock.restore(storage.getItem(SERVER_CLOCK_KEY));
  } catch {
    // Storage unavailable: the device's clock until a token arrives.
  }
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
        // The record's fields in their documented order, whatever order the token came in. The
        // clock first: a tab that hears of the token has the clock it was read with.
        if (token) {
          storage.setItem(SERVER_CLOCK_KEY, serverClock.saved());
          storage.setItem(TOKEN_STORAGE_KEY, JSON.stringify({ username: token.username, access: token.access, refresh: token.refresh }));
        } else {
          storage.removeItem(TOKEN_STORAGE_KEY);
          storage.removeItem(SERVER_CLOCK_KEY);
        }
      } catch {
        // Storage full or unavailable: the session still lives in memory for this tab.
      }
    },
    subscribe(listener) {
      const onStorage = (event: StorageEvent) => {
        if (event.key === SERVER_CLOCK_KEY && event.newValue !== null) serverClock.restore(event.newValue);
        if (event.key === TOKEN_STORAGE_KEY || event.key === null) listener(parseStoredToken(event.newValue));
      };
      target.addEventListener('storage', onStorage);
      return () => target.removeEventListener('storage', onStorage);
    },
  };
}
