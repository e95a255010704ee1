// npm run paths -- --run ID[,ID...] [--base URL]: replays model paths in Chromium, step by step as
// `--steps` prints them, and says for each `PASS ID`, `FAIL ID: step N: ...` (what was expected,
// what the page showed instead) or `SKIP ID: ...` (a step that cannot be brought about there, or
// a machine with nothing of its own on screen). Without --base each path gets a reference server
// of its own, with fresh demo data on a free port (dist/ built first when stale), where the run
// may arrange what the server does; with --base it runs against that portal with the accounts the
// PATHS_* variables name (docs/testing.md, Paths for QA). A failing step leaves a full-page
// screenshot of the moment it failed, `ID-step-N.png` in the screenshots folder, which its FAIL
// line names. The browser is Debian's Chromium, never a download.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { startServer, type RunningServer } from '../server/index.ts';
import { DEMO_ACCOUNTS, DEMO_INVITE_ID, DEMO_PASSWORD } from '../server/seed.ts';
import { suitePaths, generatePaths, type IdentifiedPath } from '../tests/model/paths.ts';
import { personSteps, said, type PersonStep } from '../tests/model/steps.ts';
import { CHROMIUM_LAUNCH, findChromium } from '../tests/e2e/browser.ts';
import { buildIfStale, DIST } from './dist.ts';
import { runAuthPath, type BrowserRun } from './paths-browser-auth.ts';
import { runDashboardPath } from './paths-browser-dashboard.ts';
import { runImpersonationPath } from './paths-browser-impersonation.ts';
import { runInvitePath } from './paths-browser-invite.ts';
import { Network, StepFailed, StepSkipped, type Account, type Target } from './paths-browser.ts';
import { machineWords, modelOf, SCREENSHOTS_DIR, UsageError } from './paths-report.ts';

/** How each machine's paths run in a browser, or why they cannot. */
const runners: Record<string, ((run: BrowserRun) => Promise<void>) | { cannot: string }> = {
  auth: runAuthPath,
  inviteRegistration: runInvitePath,
  dashboard: runDashboardPath,
  impersonation: runImpersonationPath,
  tokenRefresh: {
    cannot:
      'the token refresh runs beneath a signed-in session with nothing on screen of its own, and its steps are timers and ' +
      "answers no person brings about; a browser sees it through the auth machine's paths that refresh or end a session",
  },
};

export interface PathResult {
  id: string;
  /** The machine whose path it is: 'auth'. */
  machine: string;
  outcome: 'PASS' | 'FAIL' | 'SKIP';
  /** Why it failed or was skipped: 'step 3: expected …'. */
  detail?: string;
  /** The person step it failed at, in the words `--steps` prints. */
  failedStep?: { number: number; action: string; expected: string };
  /** The file of the page's screenshot at the moment it failed: 'test-results/paths/auth-07-step-3.png'. */
  screenshot?: string;
  /** How long it ran. */
  seconds: number;
}

/** The line a result prints: `PASS auth-07`, `FAIL auth-07: step 3: …; screenshot …/auth-07-step-3.png`, `SKIP tokenRefresh-01: …`. */
export const resultLine = (result: PathResult) =>
  result.outcome === 'PASS'
    ? `PASS ${result.id}`
    : `${result.outcome} ${result.id}: ${result.detail ?? ''}${result.screenshot ? `; screenshot ${result.screenshot}` : ''}`;

/** How long a screenshot may take: a page that cannot be drawn must not hold up the run. */
const SCREENSHOT_TIMEOUT_MS = 10_000;

/** A full-page PNG of the context's first tab (the path's own; another tab's page comes and goes within a step), or null. */
async function screenshot(context: BrowserContext, file: string): Promise<string | null> {
  const page = context.pages().find((candidate) => !candidate.isClosed());
  if (!page) return null;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file, fullPage: true, timeout: SCREENSHOT_TIMEOUT_MS });
    return file;
  } catch {
    return null;
  }
}

/** The machine a path id names: everything before its number. */
const machineOf = (id: string) => /^(.+)-\d+$/.exec(id)?.[1] ?? null;

/** The paths the ids name, each with its machine's steps; an unknown id is a usage error. */
export function pathsToRun(
  ids: readonly string[],
  now: number = Date.now(),
): { identified: IdentifiedPath; machine: string; steps: PersonStep[] }[] {
  const byMachine = new Map<string, IdentifiedPath[]>();
  return ids.map((id) => {
    const machine = machineOf(id);
    const model = machine === null ? null : modelOf(machine, now);
    if (!machine || !model)
      throw new UsageError(`Unknown path "${id}": a path id is a machine's id and a number, as npm run paths prints them (auth-07).`);
    if (!byMachine.has(machine)) byMachine.set(machine, suitePaths(generatePaths(model)));
    const identified = byMachine.get(machine)!.find((candidate) => candidate.id === id);
    if (!identified) throw new UsageError(`Unknown path "${id}": ${machine} has ${byMachine.get(machine)!.length} paths.`);
    return { identified, machine, steps: personSteps(identified.path, machineWords[machine]!) };
  });
}

// --- Where the paths run ----------------------------------------------------------------------

const demoAccount = (username: string): Account => {
  const found = DEMO_ACCOUNTS.find((account) => account.username === username);
  if (!found) throw new Error(`No demo account ${username}`);
  return { username: found.username, password: DEMO_PASSWORD, email: found.email, totpSecret: found.totpSecret };
};

/** A reference server of the path's own: fresh demo data, a database of its own, a free port. */
async function ownTarget(): Promise<{ target: Target; server: RunningServer; close: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paths-run-'));
  const server = await startServer({ port: 0, databasePath: path.join(dir, 'portal.sqlite'), distDir: DIST, demo: true, log: () => {} });
  const target: Target = {
    url: server.url,
    own: { db: server.db },
    accounts: {
      totp: demoAccount('globetrotter'),
      email: demoAccount('berlin'),
      none: demoAccount('sunny'),
      superuser: demoAccount('admin'),
    },
    inviteId: DEMO_INVITE_ID,
    family: { parent: 'AFF-100', child: 'AFF-110', outside: 'AFF-200' },
    outbox: server.outbox,
    totpSteps: new Map(),
  };
  return {
    target,
    server,
    close: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An account named by PATHS_{ROLE}_USERNAME, _PASSWORD, _ADDRESS and _SECRET, or null. */
function accountFromEnv(env: NodeJS.ProcessEnv, role: string): Account | null {
  const username = env[`PATHS_${role}_USERNAME`];
  const password = env[`PATHS_${role}_PASSWORD`];
  if (!username || !password) return null;
  return { username, password, email: env[`PATHS_${role}_ADDRESS`] || undefined, totpSecret: env[`PATHS_${role}_SECRET`] || undefined };
}

/** The portal at --base, with the accounts the environment names; whether it lists e-mailed codes is asked of it. */
export async function baseTarget(url: string, env: NodeJS.ProcessEnv = process.env): Promise<Target> {
  let outbox = false;
  try {
    const response = await fetch(`${url}/__dev/outbox?to=nobody%40paths.invalid`);
    outbox = response.ok && Array.isArray(await response.json());
  } catch {
    outbox = false;
  }
  const parent = env.PATHS_PARENT_AFFILIATE;
  const child = env.PATHS_CHILD_AFFILIATE;
  const outside = env.PATHS_OTHER_AFFILIATE;
  return {
    url,
    own: null,
    accounts: {
      totp: accountFromEnv(env, 'TOTP'),
      email: accountFromEnv(env, 'EMAIL'),
      none: accountFromEnv(env, 'NEW'),
      superuser: accountFromEnv(env, 'SUPERUSER'),
    },
    inviteId: env.PATHS_INVITE_ID || null,
    family: parent && child && outside ? { parent, child, outside } : null,
    outbox,
    totpSteps: new Map(),
  };
}

// --- Running ----------------------------------------------------------------------------------

/** Runs one path in a fresh browser context: PASS, or FAIL (with a screenshot in `screenshots`) or SKIP at the person step where it stopped. */
async function runOne(
  browser: Browser,
  target: Target,
  runner: (run: BrowserRun) => Promise<void>,
  identified: IdentifiedPath,
  steps: PersonStep[],
  screenshots: string,
): Promise<Omit<PathResult, 'machine' | 'seconds'>> {
  const { id, path: machinePath } = identified;
  const personStepOf = (index: number) => steps.find((step) => step.pathSteps.includes(index)) ?? steps[0]!;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const network = new Network(context, target);
  /** The step that failed and its screenshot, taken as it fails (before the runner's own cleanup). */
  let failed: Pick<PathResult, 'failedStep' | 'screenshot'> | null = null;
  try {
    await network.install();
    await runner({
      context,
      target,
      network,
      path: machinePath,
      step: async (index, action) => {
        try {
          return await action();
        } catch (error) {
          const personStep = personStepOf(index);
          const at = `step ${personStep.number}: `;
          if (error instanceof StepSkipped) throw new StepSkipped(at + error.message);
          failed ??= {
            failedStep: { number: personStep.number, action: said(personStep.action), expected: said(personStep.expected) },
            screenshot: (await screenshot(context, path.join(screenshots, `${id}-step-${personStep.number}.png`))) ?? undefined,
          };
          if (error instanceof StepFailed) throw new StepFailed(at + error.message);
          throw new StepFailed(at + (error instanceof Error ? error.message.split('\n')[0]! : String(error)));
        }
      },
    });
    return { id, outcome: 'PASS' };
  } catch (error) {
    if (error instanceof StepSkipped) return { id, outcome: 'SKIP', detail: error.message };
    // A failure outside any step (the context's set-up) still gets the page as it was.
    failed ??= { screenshot: (await screenshot(context, path.join(screenshots, `${id}.png`))) ?? undefined };
    return { id, outcome: 'FAIL', detail: error instanceof Error ? error.message : String(error), ...failed };
  } finally {
    network.releaseAll();
    await context.close().catch(() => {});
  }
}

export interface RunOptions {
  ids: readonly string[];
  base: string | null;
  /** Where each result line goes as it comes. */
  print?: (line: string) => void;
  /** Where the rest goes: a build of the portal, the count of results. */
  note?: (line: string) => void;
  /** The folder for the screenshots of failing steps (SCREENSHOTS_DIR unless given). */
  screenshots?: string;
  env?: NodeJS.ProcessEnv;
}

/** Runs the paths; answers their results and the exit code (1 on any failure). */
export async function runPathsInBrowser({
  ids,
  base,
  print = () => {},
  note = () => {},
  screenshots = SCREENSHOTS_DIR,
  env = process.env,
}: RunOptions): Promise<{ results: PathResult[]; code: number; startedAt: Date; seconds: number }> {
  const startedAt = new Date();
  const toRun = pathsToRun(ids);
  if (base === null && !buildIfStale(note, 'ignore')) throw new Error('The portal could not be built (npm run build says why).');
  const needsBrowser = toRun.some(({ machine }) => typeof runners[machine] === 'function');
  const browser = needsBrowser ? await chromium.launch({ executablePath: findChromium(), ...CHROMIUM_LAUNCH }) : null;
  const shared = base === null ? null : await baseTarget(base, env);
  const results: PathResult[] = [];
  try {
    for (const { identified, machine, steps } of toRun) {
      const runner = runners[machine];
      const started = performance.now();
      let outcome: Omit<PathResult, 'machine' | 'seconds'>;
      if (!browser || typeof runner !== 'function') {
        const why = runner && 'cannot' in runner ? runner.cannot : `${machine} has no browser runner yet`;
        outcome = { id: identified.id, outcome: 'SKIP', detail: `cannot run in a browser: ${why}` };
      } else if (shared) {
        outcome = await runOne(browser, shared, runner, identified, steps, screenshots);
      } else {
        const own = await ownTarget();
        try {
          outcome = await runOne(browser, own.target, runner, identified, steps, screenshots);
        } finally {
          await own.close();
        }
      }
      const result: PathResult = { ...outcome, machine, seconds: (performance.now() - started) / 1000 };
      results.push(result);
      print(resultLine(result));
    }
  } finally {
    await browser?.close();
  }
  const count = (outcome: PathResult['outcome']) => results.filter((result) => result.outcome === outcome).length;
  note(`${count('PASS')} passed, ${count('FAIL')} failed, ${count('SKIP')} skipped`);
  return { results, code: count('FAIL') > 0 ? 1 : 0, startedAt, seconds: (Date.now() - startedAt.getTime()) / 1000 };
}
