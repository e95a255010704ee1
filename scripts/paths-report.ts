// What `npm run paths` prints (scripts/paths.ts): the test paths xstate/graph generates from each
// machine (tests/model/*-paths.ts) with the extra ones the UI suites run, each under its path id
// ('auth-07', the name of its model-based test), as numbered steps with their coverage, or as
// JSON for QA's tools. `--machine NAME` keeps one machine.
import { parseArgs } from 'node:util';
import { authModel } from '../tests/model/auth-paths.ts';
import { formatCoverage } from '../tests/model/coverage.ts';
import { dashboardModel } from '../tests/model/dashboard-paths.ts';
import { impersonationModel } from '../tests/model/impersonation-paths.ts';
import { inviteModel } from '../tests/model/invite-paths.ts';
import { formatModelPaths, generatePaths, pathJson, suitePaths, type MachineModel, type PathJson } from '../tests/model/paths.ts';
import { tokenRefreshModel } from '../tests/model/token-refresh-paths.ts';

/** Every machine with a model; add new ones here. */
export function allModels(now: number = Date.now()): MachineModel[] {
  return [authModel(now), tokenRefreshModel(now), inviteModel(), dashboardModel(now), impersonationModel()];
}

export const USAGE = 'Usage: npm run paths -- [--json] [--machine NAME]';

export interface PathsOptions {
  json: boolean;
  /** The one machine to print (its id), or every machine. */
  machine: string | null;
}

/** A command line the script cannot run: its message, and exit code 2. */
export class UsageError extends Error {}

/** The options from the command line's arguments (after `--`). */
export function parsePathsArgs(args: readonly string[]): PathsOptions {
  try {
    const { values } = parseArgs({
      args: [...args],
      options: { json: { type: 'boolean', default: false }, machine: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    return { json: values.json, machine: values.machine ?? null };
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
}

/** The models to print: all, or the one `machine` names (by its id, as in the path ids). */
export function selectModels(models: readonly MachineModel[], machine: string | null): MachineModel[] {
  if (machine === null) return [...models];
  const model = models.find((candidate) => candidate.id === machine);
  if (!model) {
    throw new UsageError(`Unknown machine "${machine}". Machines: ${models.map((candidate) => candidate.id).join(', ')}.`);
  }
  return [model];
}

/** The paths of the models, as `--json` prints them: one entry per path, in id order. */
export function pathsJson(models: readonly MachineModel[]): PathJson[] {
  return models.flatMap((model) => suitePaths(generatePaths(model)).map((path) => pathJson(model.id, path)));
}

/** The plain printout: each machine's paths under their ids, its coverage, then a summary. */
export function pathsText(models: readonly MachineModel[]): string {
  const lines: string[] = [];
  const summary: string[] = [];
  for (const model of models) {
    const result = generatePaths(model);
    lines.push(...formatModelPaths(result));
    const unreachable = result.coverage.transitions.missing.filter((key) => model.unreachableTransitions?.[key] !== undefined);
    summary.push(
      `${model.id}: ${formatCoverage(result.paths.length, result.coverage)}` +
        (unreachable.length > 0 ? `; ${unreachable.length} unreachable by design` : ''),
    );
  }
  return [...lines, 'Summary', ...summary].join('\n');
}

/** Runs the script on `args`: what it prints on stdout and stderr, and its exit code. */
export function runPaths(
  args: readonly string[],
  models: readonly MachineModel[] = allModels(),
): { stdout: string; stderr: string; code: number } {
  try {
    const options = parsePathsArgs(args);
    const selected = selectModels(models, options.machine);
    const stdout = options.json ? JSON.stringify(pathsJson(selected), null, 2) : pathsText(selected);
    return { stdout: `${stdout}\n`, stderr: '', code: 0 };
  } catch (error) {
    if (error instanceof UsageError) return { stdout: '', stderr: `${error.message}\n`, code: 2 };
    throw error;
  }
}
