// Global set-up: hashes the fixture users' passwords once for the whole run (see
// fixture-passwords.ts).
import type { TestProject } from 'vitest/node';
import { hashPasswordSync } from '../../server/passwords.ts';
import { fixturePassword, fixtureUserNames } from './fixture-passwords.ts';

export default function setup(project: TestProject): void {
  const passwords = fixtureUserNames.map(fixturePassword);
  project.provide('fixturePasswordHashes', Object.fromEntries(passwords.map((password) => [password, hashPasswordSync(password)])));
}
