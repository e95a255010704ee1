// npm run paths: the test paths xstate/graph generates from each machine (tests/model/*-paths.ts),
// as numbered steps, and what they cover of each machine's state nodes and transitions.
import { authModel } from '../tests/model/auth-paths.ts';
import { formatCoverage } from '../tests/model/coverage.ts';
import { dashboardModel } from '../tests/model/dashboard-paths.ts';
import { impersonationModel } from '../tests/model/impersonation-paths.ts';
import { inviteModel } from '../tests/model/invite-paths.ts';
import { formatModelPaths, generatePaths, type MachineModel } from '../tests/model/paths.ts';
import { tokenRefreshModel } from '../tests/model/token-refresh-paths.ts';

/** Every machine with a model; add new ones here. */
const models: MachineModel[] = [authModel(), tokenRefreshModel(), inviteModel(), dashboardModel(), impersonationModel()];

const summary: string[] = [];
for (const model of models) {
  const result = generatePaths(model);
  console.log(formatModelPaths(result).join('\n'));
  const unreachable = result.coverage.transitions.missing.filter((key) => model.unreachableTransitions?.[key] !== undefined);
  summary.push(
    `${model.id}: ${formatCoverage(result.paths.length, result.coverage)}` +
      (unreachable.length > 0 ? `; ${unreachable.length} unreachable by design` : ''),
  );
}
console.log(['Summary', ...summary].join('\n'));
