// Whether the browser says it is online (navigator.onLine, kept up to date by its online and
// offline events): a page keeps what it shows while offline and says so.
import { useSyncExternalStore } from 'react';

function subscribe(changed: () => void): () => void {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

/** The line a page shows while offline (role="status"). */
export const OFFLINE_TEXT = 'You are offline. The figures will update when the connection is back.';
