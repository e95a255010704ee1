// A module loaded on demand that a view waits for without Suspense: until it is there the view
// shows its own loading line, and it shows the module the moment it arrives. A Suspense fallback
// would hold the content back for React's reveal throttle (300 ms) after it is ready. Loading can
// start early (preloading), before any view asks; a failure is thrown to the nearest error boundary.
import { useSyncExternalStore } from 'react';

type Loaded<T> = { value: T } | { error: unknown };

export interface LazyModule<T> {
  /** Starts loading; once only. */
  load: () => void;
  subscribe: (listener: () => void) => () => void;
  state: () => Loaded<T> | undefined;
}

export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let started = false;
  let loaded: Loaded<T> | undefined;
  const listeners = new Set<() => void>();
  const settle = (state: Loaded<T>) => {
    loaded = state;
    listeners.forEach((listener) => listener());
  };
  return {
    load: () => {
      if (started) return;
      started = true;
      importer().then(
        (value) => settle({ value }),
        (error: unknown) => settle({ error }),
      );
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    state: () => loaded,
  };
}

/** The module once loaded (undefined until then); loading starts if it has not. */
export function useLazyModule<T>(module: LazyModule<T>): T | undefined {
  module.load();
  const loaded = useSyncExternalStore(module.subscribe, module.state);
  if (loaded && 'error' in loaded) throw loaded.error;
  return loaded?.value;
}
