// `npm run paths -- --run` as QA runs it: representative paths of each machine replayed in
// Chromium, each against a reference server of its own (server errors and a lost connection
// brought about on the way, wrong codes at the server); and against --base, a portal with the
// accounts PATHS_* variables name, where a path the portal does not follow prints FAIL with the
// step and what the page showed, and a step only a run's own server can arrange prints SKIP.
// The paths are picked by what their steps say, so that a renumbered machine picks the same ones.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allModels, toldPaths } from '../../scripts/paths-report.ts';
import { said, type ToldPath } from '../model/steps.ts';
import { account, password, startPortal, type Portal } from './portal.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Runs `npm run paths -- ...args` (without npm's banner), the event loop free for a portal in this process. */
function runScript(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; status: number | null }> {
  const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const child = spawn(process.execPath, [tsx, path.join(root, 'scripts', 'paths.ts'), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ stdout, stderr, status })));
}

let told: ToldPath[];
/** The first path whose steps, said, all the patterns find (in the order given). */
function pathWhere(...patterns: RegExp[]): string {
  const found = told.find((candidate) => {
    const text = candidate.steps.map((step) => `${said(step.action)}: ${said(step.expected)}`).join('\n');
    return patterns.every((pattern) => pattern.test(text));
  });
  if (!found) throw new Error(`No path says ${patterns.join(' and ')}`);
  return found.id;
}

beforeAll(() => {
  told = toldPaths(allModels().filter((model) => model.id !== 'tokenRefresh'));
}, 120_000);

describe('npm run paths -- --run, each path with a reference server of its own', () => {
  it('passes a path of each machine, the server failing and the connection lost on the way', { timeout: 400_000 }, async () => {
    const ids = [
      pathWhere(/type a wrong code into 'Authentication Code', press 'Verify'.*'Invalid TOTP code\. Please try again\.'/),
      pathWhere(
        /press 'Authenticator App', while the server answers 2fa\/totp\/setup\/ with HTTP 500.*'HTTP Error: 500'/,
        /^press 'Retry'/m,
      ),
      pathWhere(/with the connection lost as affiliates\/invites\/\{inviteId\}\/ is called/, /^press 'Retry'/m),
      pathWhere(/select the bar of .*today.*\n.*select the bar of .*2 days ago/),
      pathWhere(
        /reload the tab, which viewed as the parent affiliate before.*\n.*choose 'Own view \(all affiliates\)'.*\n.*choose the child affiliate/,
      ),
    ];
    const result = await runScript(['--run', ids.join(',')]);
    expect(result.stdout.trim().split('\n'), result.stderr).toEqual(ids.map((id) => `PASS ${id}`));
    expect(result.stderr).toContain('5 passed, 0 failed, 0 skipped');
    expect(result.status).toBe(0);
  });
});

describe('npm run paths -- --run --base, with the accounts the environment names', () => {
  let portal: Portal;
  beforeAll(async () => {
    portal = await startPortal();
  });
  afterAll(async () => {
    await portal.close();
  });

  const globetrotter = () => ({
    PATHS_TOTP_USERNAME: 'globetrotter',
    PATHS_TOTP_PASSWORD: password,
    PATHS_TOTP_SECRET: account('globetrotter').totpSecret!,
  });

  it(
    'passes what the portal does, and skips a step only a run with its own server can arrange, saying why',
    { timeout: 300_000 },
    async () => {
      const wrongCode = pathWhere(/type a wrong code into 'Authentication Code', press 'Verify'/);
      const sessionRefused = pathWhere(/after the server stopped accepting the session's token/);
      const result = await runScript(['--run', `${wrongCode},${sessionRefused}`, '--base', portal.url], globetrotter());
      const lines = result.stdout.trim().split('\n');
      expect(lines[0], result.stderr).toBe(`PASS ${wrongCode}`);
      expect(lines[1]).toMatch(
        new RegExp(
          `^SKIP ${sessionRefused}: step \\d+: needs the server to stop accepting the session: only a run with its own server can arrange it$`,
        ),
      );
      expect(lines).toHaveLength(2);
      expect(result.status).toBe(0);
    },
  );

  it(
    'fails a path the portal does not follow, naming the step, what it expected and what the page showed, and exits 1',
    { timeout: 300_000 },
    async () => {
      // The authenticator secret given is another account's: the code typed is refused, so the sign-in the path expects never comes.
      const signIn = pathWhere(
        /type the code the user's authenticator app shows into 'Authentication Code', press 'Verify': .*then the portal \('Logout' in the header\) shows/,
      );
      const result = await runScript(['--run', signIn, '--base', portal.url], {
        ...globetrotter(),
        PATHS_TOTP_SECRET: account('admin').totpSecret!,
      });
      const step =
        told
          .find((candidate) => candidate.id === signIn)!
          .steps.findIndex((candidate) => said(candidate.action).startsWith('type the code')) + 1;
      expect(result.stdout.trim(), result.stderr).toMatch(
        new RegExp(
          `^FAIL ${signIn}: step ${step}: expected the portal \\('Logout' in the header\\) shows \\(missing: .*'Logout' enabled.*\\); ` +
            `the page showed heading 'Enter 2FA Code', status none, alerts 'Invalid TOTP code\\. Please try again\\.', at /login$`,
        ),
      );
      expect(result.stderr).toContain('0 passed, 1 failed, 0 skipped');
      expect(result.status).toBe(1);
    },
  );
});
