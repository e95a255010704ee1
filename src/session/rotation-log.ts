// The refresh tokens the tabs of this browser have spent, each with the pair the server gave for
// it. A refresh token works once, and the server takes a second use for theft (it revokes the
// whole chain), so a tab must never spend one another tab has spent. localStorage cannot tell:
// Chromium serves each tab from its own copy and brings the copies up to date later, so a tab
// can read the old record after the other tab has written the new one. IndexedDB is one store
// for every tab: a rotation recorded before the refresh lock is released is seen by the next
// tab that takes the lock.
import type { UseStore } from 'idb-keyval';
import type { TokenPair } from '../api/schemas.ts';

/** Rotations kept: enough for a tab that slept through many refreshes. */
const KEPT = 20;

interface Rotation extends TokenPair {
  spent: string;
}

export interface RotationLog {
  /** The newest pair of the chain `pair` belongs to: `pair` itself when it was never rotated. */
  newest(pair: TokenPair): Promise<TokenPair>;
  /** Records that `spent` was rotated to `next`; done before the refresh lock is released. */
  add(spent: string, next: TokenPair): Promise<void>;
  /** Forgets every rotation, at sign-out: the log holds live tokens. */
  clear(): Promise<void>;
}

function followRotations(rotations: readonly Rotation[], pair: TokenPair): TokenPair {
  let newest = pair;
  for (let hops = 0; hops < rotations.length; hops++) {
    const next = rotations.find((rotation) => rotation.spent === newest.refresh);
    if (!next) break;
    newest = { access: next.access, refresh: next.refresh };
  }
  return newest;
}

function rotationLog(load: () => Promise<Rotation[]>, save: (rotations: Rotation[]) => Promise<void>): RotationLog {
  return {
    async newest(pair) {
      return followRotations(await load(), pair);
    },
    async add(spent, next) {
      const kept = (await load()).filter((rotation) => rotation.spent !== spent).slice(0, KEPT - 1);
      await save([{ spent, access: next.access, refresh: next.refresh }, ...kept]);
    },
    async clear() {
      await save([]);
    },
  };
}

/** One tab's log, for where there is no IndexedDB (and in tests, shared by simulated tabs). */
export function memoryRotationLog(): RotationLog {
  let rotations: Rotation[] = [];
  return rotationLog(
    () => Promise.resolve(rotations),
    (next) => {
      rotations = next;
      return Promise.resolve();
    },
  );
}

/**
 * The log in IndexedDB, loaded when first used (after sign-in, so not on the login page). Where
 * IndexedDB fails (storage blocked), the tab keeps its own log in memory.
 */
function indexedDbRotationLog(): RotationLog {
  const KEY = 'rotations';
  let memory: Rotation[] = [];
  let opened: Promise<{ idb: typeof import('idb-keyval'); store: UseStore }> | null = null;
  const open = () => (opened ??= import('idb-keyval').then((idb) => ({ idb, store: idb.createStore('affiliate-portal', 'session') })));
  return rotationLog(
    async () => {
      try {
        const { idb, store } = await open();
        return (await idb.get<Rotation[]>(KEY, store)) ?? [];
      } catch {
        return memory;
      }
    },
    async (rotations) => {
      memory = rotations;
      try {
        const { idb, store } = await open();
        await idb.set(KEY, rotations, store);
      } catch {
        // Other tabs cannot learn of this rotation; this tab still knows it.
      }
    },
  );
}

/** IndexedDB where the browser has it. */
export function browserRotationLog(): RotationLog {
  return typeof indexedDB === 'undefined' ? memoryRotationLog() : indexedDbRotationLog();
}
