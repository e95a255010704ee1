// Whether the browser says it is online (navigator.onLine, kept up to date by its online and
// offline events): a page keeps what it shows while offline and says so.
import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';

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

/**
 * Calls `then`, as of the last render, each time the connection is back. Its listener is added
 * once: one added again at each render could be taken off during the very event, since the
 * browser lets React render between one listener and the next (after useOnline's, say).
 */
export function useBackOnline(then: () => void): void {
  const backOnline = useEffectEvent(then);
  useEffect(() => {
    const listener = () => backOnline();
    window.addEventListener('online', listener);
    return () => window.removeEventListener('online', listener);
  }, []);
}

/** The line a page shows while offline (role="status"). */
export const OFFLINE_TEXT = 'You are offline. The figures will update when the connection is back.';
