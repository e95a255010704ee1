// What `npm run paths` prints (scripts/paths.ts): the test paths xstate/graph generates from each
// machine (tests/model/*-paths.ts) with the extra ones the UI suites run, each under its path id
// ('auth-07', the name of its model-based test), as numbered steps with their coverage, as JSON
// for QA's tools, or with `--steps` as what a person does and sees (tests/model/steps.ts, in
// text, CSV or Markdown). `--machine NAME` keeps one machine. `--run` (scripts/paths-run.ts)
// replays paths in Chromium, reported in lines or as JUnit XML (scripts/paths-junit.ts).
import { parseArgs } from 'node:util';
import { authModel } from '../tests/model/auth-paths.ts';
import { authWords } from '../tests/model/auth-words.ts';
import { formatCoverage } from '../tests/model/coverage.ts';
import { dashboardModel } from '../tests/model/dashboard-paths.ts';
import { dashboardWords } from '../tests/model/dashboard-words.ts';
import { impersonationModel } from '../tests/model/impersonation-paths.ts';
import { impersonationWords } from '../tests/model/impersonation-words.ts';
import { inviteModel } from '../tests/model/invite-paths.ts';
import { inviteWords } from '../tests/model/invite-words.ts';
import {
  formatModelPaths,
  generatePaths,
  pathJson,
  suitePaths,
  type MachineModel,
  type ModelPaths,
  type PathJson,
} from '../tests/model/paths.ts';
import {
  NoWordsError,
  personSteps,
  STEPS_FORMATS,
  stepsCsv,
  stepsMarkdown,
  stepsText,
  type MachineWords,
  type StepsFormat,
  type ToldPath,
} from '../tests/model/steps.ts';
import { tokenRefreshModel } from '../tests/model/token-refresh-paths.ts';
import { tokenRefreshWords } from '../tests/model/token-refresh-words.ts';

/** The machines with a model, by id; add new ones here, with their words. */
const modelsById: Record<string, (now: number) => MachineModel> = {
  auth: authModel,
  tokenRefresh: tokenRefreshModel,
  inviteRegistration: inviteModel,
  dashboard: dashboardModel,
  impersonation: () => impersonationModel(),
};

/** Each machine's steps in words (tests/model/*-words.ts), by its id. */
export const machineWords: Record<string, MachineWords> = {
  auth: authWords,
  tokenRefresh: tokenRefreshWords,
  inviteRegistration: inviteWords,
  dashboard: dashboardWords,
  impersonation: impersonationWords,
};

/** Every machine with a model. */
export function allModels(now: number = Date.now()): MachineModel[] {
  return Object.values(modelsById).map((model) => model(now));
}

/** The model of one machine, by its id. */
export function modelOf(machine: string, now: number = Date.now()): MachineModel | null {
  return modelsById[machine]?.(now) ?? null;
}

/** Where `--run` keeps the screenshots of failing steps unless --screenshots names a folder. */
export const SCREENSHOTS_DIR = 'test-results/paths';

export const USAGE =
  'Usage: npm run paths -- [--json | --steps [--format text|csv|markdown] | --run ID[,ID...] [--base URL] ' +
  '[--reporter lines|junit] [--output FILE] [--screenshots DIR]] [--machine NAME] [--help]';

/** What `--help` prints. */
export const HELP = `${USAGE}

  (no option)            every machine's test paths under their ids, with their coverage
  --json                 the same as JSON
  --steps                what a person does and sees on each path, step by step
    --format FORMAT      text (the default), csv or markdown
  --machine NAME         one machine only: auth, tokenRefresh, inviteRegistration, dashboard, impersonation
  --run ID[,ID...]       replays the paths in Chromium; exit code 1 when one fails
    --base URL           against the portal at URL, with the accounts the PATHS_* variables name
                         (default: a reference server of each path's own, with fresh demo data)
    --reporter lines     one line per path on stdout (the default):
                         PASS ID, FAIL ID: step N: ...; screenshot FILE, or SKIP ID: ...
    --reporter junit     JUnit XML on stdout instead of the lines
    --output FILE        with --reporter junit: the XML goes to FILE, and the lines stay on stdout
    --screenshots DIR    where the full-page PNG of each failing step goes, as ID-step-N.png
                         (default: ${SCREENSHOTS_DIR})
  --help                 this text
`;

/** How `--run` reports: a line per path, or JUnit XML. */
export const REPORTERS = ['lines', 'junit'] as const;
export type Reporter = (typeof REPORTERS)[number];

export interface PathsOptions {
  json: boolean;
  /** The paths as steps a person performs, in this format; null: not asked for. */
  steps: StepsFormat | null;
  /** The ids of the paths to replay in Chromium; null: not asked for. */
  run: string[] | null;
  /** The portal to replay them against; null: a reference server of the run's own. */
  base: string | null;
  /** How the run reports its results. */
  reporter: Reporter;
  /** The file the JUnit XML goes to; null: stdout. */
  output: string | null;
  /** The folder for the screenshots of failing steps. */
  screenshots: string;
  /** Only the help text is asked for. */
  help: boolean;
  /** The one machine to print (its id), or every machine. */
  machine: string | null;
}

/** A command line the script cannot run: its message, and exit code 2. */
export class UsageError extends Error {}

/** The options from the command line's arguments (after `--`). */
export function parsePathsArgs(args: readonly string[]): PathsOptions {
  const refuse = (message: string) => new UsageError(`${message}\n${USAGE}`);
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        json: { type: 'boolean', default: false },
        steps: { type: 'boolean', default: false },
        format: { type: 'string' },
        run: { type: 'string' },
        base: { type: 'string' },
        reporter: { type: 'string' },
        output: { type: 'string' },
        screenshots: { type: 'string' },
        machine: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw refuse(error instanceof Error ? error.message : String(error));
  }
  const modes = [values.json && '--json', values.steps && '--steps', values.run !== undefined && '--run'].filter(Boolean);
  if (modes.length > 1) throw refuse(`${modes.join(' and ')} cannot be asked for together.`);
  if (values.format !== undefined && !values.steps) throw refuse('--format goes with --steps.');
  for (const option of ['base', 'reporter', 'output', 'screenshots'] as const)
    if (values[option] !== undefined && values.run === undefined) throw refuse(`--${option} goes with --run.`);
  const reporter = values.reporter ?? 'lines';
  if (!REPORTERS.includes(reporter as Reporter)) throw refuse(`Unknown reporter "${reporter}": lines or junit.`);
  if (values.output !== undefined && reporter !== 'junit') throw refuse('--output goes with --reporter junit.');
  if (values.output === '') throw refuse('--output needs a file name.');
  if (values.screenshots === '') throw refuse('--screenshots needs a folder name.');
  const format = values.format ?? 'text';
  if (!STEPS_FORMATS.includes(format as StepsFormat)) throw refuse(`Unknown format "${format}": text, csv or markdown.`);
  const run =
    values.run
      ?.split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '') ?? null;
  if (run !== null && run.length === 0) throw refuse('--run needs the ids of the paths to run: --run auth-07,dashboard-02.');
  if (values.base !== undefined && !/^https?:\/\/[^/]/.test(values.base))
    throw refuse(`--base must be an http(s) URL, not "${values.base}".`);
  return {
    json: values.json,
    steps: values.steps ? (format as StepsFormat) : null,
    run,
    base: values.base?.replace(/\/+$/, '') ?? null,
    reporter: reporter as Reporter,
    output: values.output ?? null,
    screenshots: values.screenshots ?? SCREENSHOTS_DIR,
    help: values.help,
    machine: values.machine ?? null,
  };
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

/** Each path of the models as steps a person performs (`generated`: their paths, when already at hand). */
export function toldPaths(models: readonly MachineModel[], generated: readonly ModelPaths[] = models.map(generatePaths)): ToldPath[] {
  return models.flatMap((model, index) => {
    const words = machineWords[model.id];
    if (!words) throw new Error(`The machine ${model.id} has no words (scripts/paths-report.ts machineWords)`);
    return suitePaths(generated[index]!).map(({ id, path, extra }) => {
      try {
        return { id, extra, steps: personSteps(path, words) };
      } catch (error) {
        if (error instanceof NoWordsError) throw new NoWordsError(`${id}: ${error.message}`);
        throw error;
      }
    });
  });
}

/** The steps in the format asked for. */
export function stepsOutput(paths: readonly ToldPath[], format: StepsFormat): string {
  if (format === 'csv') return stepsCsv(paths);
  if (format === 'markdown') return stepsMarkdown(paths);
  return stepsText(paths);
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
    if (options.help) return { stdout: HELP, stderr: '', code: 0 };
    if (options.run) throw new UsageError(`--run replays paths in a browser: scripts/paths.ts runs it.\n${USAGE}`);
    const selected = selectModels(models, options.machine);
    const stdout = options.json
      ? JSON.stringify(pathsJson(selected), null, 2)
      : options.steps
        ? stepsOutput(toldPaths(selected), options.steps)
        : pathsText(selected);
    return { stdout: `${stdout}\n`, stderr: '', code: 0 };
  } catch (error) {
    if (error instanceof UsageError) return { stdout: '', stderr: `${error.message}\n`, code: 2 };
    throw error;
  }
}
