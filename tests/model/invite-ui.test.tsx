// The model-based suite of the invite registration page (see docs/testing.md): every
// path generated from the real machine (tests/model/invite-paths.ts, `npm run paths`), plus one
// for each sample outcome those leave out, runs against the real page in a real session, with the
// reference server in process (tests/model/invite-driver.tsx turns each event into a real action
// or server answer, and checks each state's screen). A path that meets a 404 runs once for each
// way an invite link goes bad: unknown, expired, used. The last test measures what the paths that
// ran cover of the machine: all of it.
import { describe, it } from 'vitest';
import type { MachinePath } from './coverage.ts';
import { expectFullCoverage } from './expect-coverage.ts';
import { missingInvites, startInviteDriver } from './invite-driver.tsx';
import { inviteModel } from './invite-paths.ts';
import { generatePaths, pathTitle, suitePaths } from './paths.ts';

const model = inviteModel();
const generated = generatePaths(model);
const paths = suitePaths(generated);

const meetsMissingInvite = (path: MachinePath) => {
  const error = (path.steps[1]?.event as { error?: { status?: unknown } } | undefined)?.error;
  return path.steps[1]?.event.type === 'xstate.error.actor.lookupInvite' && error?.status === 404;
};

/** The paths whose every step the page went through. */
const ran: MachinePath[] = [];

describe('the invite page follows the invite registration machine', () => {
  paths.forEach(({ id, path }) => {
    const runs = meetsMissingInvite(path) ? missingInvites : [undefined];
    for (const missingInvite of runs) {
      const title = `${id}: ${pathTitle(path)}${missingInvite ? ` (${missingInvite} invite)` : ''}`;
      it(title, { timeout: 20_000 }, async () => {
        await startInviteDriver({ missingInvite }).run(path);
        if (!ran.includes(path)) ran.push(path);
      });
    }
  });

  it('covers every state and transition of the invite registration machine with the paths that ran', () => {
    expectFullCoverage('invite', generated, ran);
  });
});
