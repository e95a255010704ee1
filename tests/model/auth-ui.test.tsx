// The model-based suite of the sign-in UI (see docs/testing.md): every path generated
// from the real auth machine (tests/model/auth-paths.ts, `npm run paths`) runs against the real
// screens in a real session, with the reference server in process (tests/model/auth-driver.tsx
// turns each event into a real action or server answer, and checks each state's screen). The
// last test measures what the paths that ran cover of the machine: all of it.
import { describe, it } from 'vitest';
import { startAuthDriver } from './auth-driver.tsx';
import { authModel } from './auth-paths.ts';
import type { MachinePath } from './coverage.ts';
import { expectFullCoverage } from './expect-coverage.ts';
import { generatePaths, pathId, pathTitle } from './paths.ts';

const now = Date.now();
const model = authModel(now);
const generated = generatePaths(model);
const { paths } = generated;

/** The paths whose every step the UI went through. */
const ran: MachinePath[] = [];

describe('the sign-in UI follows the auth machine', () => {
  paths.forEach((path, index) => {
    it(`${pathId(model.id, index)}: ${pathTitle(path)}`, { timeout: 20_000 }, async () => {
      await startAuthDriver().run(path);
      ran.push(path);
    });
  });

  it('covers every state and transition of the auth machine with the paths that ran', () => {
    expectFullCoverage('auth', generated, ran);
  });
});
