// The model-based suite of viewing the portal as an affiliate (see docs/testing.md):
// every path generated from the real impersonation machine (tests/model/impersonation-paths.ts,
// `npm run paths`) runs against the real header and Sales Dashboard in a real session with the
// reference server in process (tests/model/impersonation-driver.tsx turns each event into what the
// superuser does, and checks each state's page). A path back to the own view runs once for each
// way there: the selector's own view option and the 'Stop viewing as' button. The last test
// measures what the paths that ran cover of the machine: all of it.
import { describe, it } from 'vitest';
import type { MachinePath } from './coverage.ts';
import { expectFullCoverage } from './expect-coverage.ts';
import { ownViewControls, startImpersonationDriver } from './impersonation-driver.tsx';
import { impersonationModel } from './impersonation-paths.ts';
import { generatePaths, pathId, pathTitle } from './paths.ts';

const model = impersonationModel();
const generated = generatePaths(model);

const goesToOwnView = (path: MachinePath) =>
  path.steps.some((step) => step.event.type === 'IMPERSONATION.SELECT' && (step.event as { affiliateId?: string }).affiliateId === '');

/** The paths whose every step the page went through. */
const ran: MachinePath[] = [];

describe('the header and dashboard follow the impersonation machine', () => {
  generated.paths.forEach((path, index) => {
    const runs = goesToOwnView(path) ? ownViewControls : [undefined];
    for (const ownView of runs) {
      const title = `${pathId(model.id, index)}: ${pathTitle(path)}${ownView ? ` (own view by ${ownView === 'stop' ? "'Stop viewing as'" : 'the selector'})` : ''}`;
      it(title, { timeout: 20_000 }, async () => {
        await (await startImpersonationDriver({ ownView })).run(path);
        if (!ran.includes(path)) ran.push(path);
      });
    }
  });

  it('covers every state and transition of the impersonation machine with the paths that ran', () => {
    expectFullCoverage('impersonation', generated, ran);
  });
});
