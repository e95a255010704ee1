// The fixture users' passwords and their scrypt hashes (at the real cost). A hash takes tens of
// milliseconds, far more on a loaded machine: the global set-up (fixture-hashes.global.ts) hashes
// the passwords once per test run and provides the hashes to every test file, which would
// otherwise hash them again each.
import { inject } from 'vitest';
import { hashPasswordSync } from '../../server/passwords.ts';

export const fixtureUserNames = ['parent', 'child', 'fresh', 'admin', 'loner'] as const;

export const fixturePassword = (username: string): string => `${username}-password-1`;

declare module 'vitest' {
  export interface ProvidedContext {
    /** Password to hash, for the fixture users; absent where no global set-up provides it. */
    fixturePasswordHashes?: Record<string, string>;
  }
}

const hashes = new Map<string, string>();

/** The password's hash: the one provided for this run, else hashed here (once per file). */
export function fixturePasswordHash(password: string): string {
  let hash = hashes.get(password) ?? inject('fixturePasswordHashes')?.[password];
  if (hash === undefined) hash = hashPasswordSync(password);
  hashes.set(password, hash);
  return hash;
}
