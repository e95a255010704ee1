// `npm run paths -- --run` as QA runs it: representative paths of each machine replayed in
// Chromium, each against a reference server of its own (server errors and a lost connection
// brought about on the way, wrong codes at the server); and against --base, a portal with the
// accounts PATHS_* variables name, where a path the portal does not follow prints FAIL with the
// step and what the page showed (and a screenshot of it, which JUnit XML attaches), and a step only
// a run's own server can arrange prints SKIP.
// The paths are picked by what their steps say, so that a renumbered machine picks the same ones.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allModels, toldPaths } from '../../scripts/paths-report.ts';
import { said, type ToldPath } from '../model/steps.ts';
import { launchBrowser } from './browser.ts';
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

/** The width and height of a PNG file, or null when the file is not a PNG. */
function pngSize(file: string): { width: number; height: number } | null {
  const bytes = fs.readFileSync(file);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!bytes.subarray(0, 8).equals(signature) || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

interface JunitCase {
  attributes: Record<string, string>;
  failure: { message: string | null; text: string } | null;
  systemOut: string | null;
  children: number;
}

/** The test suite and cases of JUnit XML as Chromium's XML parser reads them; not well-formed XML fails the test. */
async function junitRead(xml: string): Promise<{ suite: Record<string, string>; cases: JunitCase[] }> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const read = await page.evaluate((text) => {
      const document = new DOMParser().parseFromString(text, 'application/xml');
      const error = document.querySelector('parsererror');
      if (error) return { error: error.textContent ?? 'parsererror' };
      const attributes = (element: Element | null) =>
        Object.fromEntries([...(element?.attributes ?? [])].map((attribute) => [attribute.name, attribute.value]));
      return {
        suite: attributes(document.querySelector('testsuites > testsuite')),
        cases: [...document.querySelectorAll('testsuite > testcase')].map((testcase) => {
          const failure = testcase.querySelector('failure');
          return {
            attributes: attributes(testcase),
            failure: failure && { message: failure.getAttribute('message'), text: failure.textContent ?? '' },
            systemOut: testcase.querySelector('system-out')?.textContent ?? null,
            children: testcase.children.length,
          };
        }),
      };
    }, xml);
    if ('error' in read) throw new Error(`Not well-formed XML: ${read.error}\n${xml}`);
    return read;
  } finally {
    await browser.close();
  }
}

const escapedForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
  let screenshots: string;
  beforeAll(async () => {
    portal = await startPortal();
    screenshots = fs.mkdtempSync(path.join(os.tmpdir(), 'paths-screenshots-'));
  });
  afterAll(async () => {
    await portal.close();
    fs.rmSync(screenshots, { recursive: true, force: true });
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

  /** A sign-in path and its step that types the authenticator's code. */
  const signInPath = () => {
    const id = pathWhere(
      /type the code the user's authenticator app shows into 'Authentication Code', press 'Verify': .*then the portal \('Logout' in the header\) shows/,
    );
    const steps = told.find((candidate) => candidate.id === id)!.steps;
    const step = steps.findIndex((candidate) => said(candidate.action).startsWith('type the code')) + 1;
    return { id, step, words: steps[step - 1]! };
  };
  // The authenticator secret given is another account's: the code typed is refused, so the sign-in the path expects never comes.
  const wrongSecret = () => ({ ...globetrotter(), PATHS_TOTP_SECRET: account('admin').totpSecret! });

  it(
    'fails a path the portal does not follow, naming the step, what it expected, what the page showed and its screenshot, and exits 1',
    { timeout: 300_000 },
    async () => {
      const { id: signIn, step } = signInPath();
      const folder = path.join(screenshots, 'lines');
      const result = await runScript(['--run', signIn, '--base', portal.url, '--screenshots', folder], wrongSecret());
      const screenshot = path.join(folder, `${signIn}-step-${step}.png`);
      expect(result.stdout.trim(), result.stderr).toMatch(
        new RegExp(
          `^FAIL ${signIn}: step ${step}: expected the portal \\('Logout' in the header\\) shows \\(missing: .*'Logout' enabled.*\\); ` +
            `the page showed heading 'Enter 2FA Code', status none, alerts 'Invalid TOTP code\\. Please try again\\.', at /login; ` +
            `screenshot ${escapedForRegExp(screenshot)}$`,
        ),
      );
      // The whole page at the browser's width, as the step left it.
      expect(pngSize(screenshot)).toMatchObject({ width: 1280, height: expect.any(Number) as number });
      expect(pngSize(screenshot)!.height).toBeGreaterThanOrEqual(900);
      expect(result.stderr).toContain('0 passed, 1 failed, 0 skipped');
      expect(result.status).toBe(1);
    },
  );

  it(
    'reports as JUnit XML on stdout: a test case per path, the failing step in its failure, its screenshot attached',
    { timeout: 300_000 },
    async () => {
      const wrongCode = pathWhere(/type a wrong code into 'Authentication Code', press 'Verify'/);
      const { id: signIn, step, words } = signInPath();
      const folder = path.join(screenshots, 'junit');
      const result = await runScript(
        ['--run', `${wrongCode},${signIn}`, '--base', portal.url, '--reporter', 'junit', '--screenshots', folder],
        wrongSecret(),
      );
      const { suite, cases } = await junitRead(result.stdout);
      expect(suite, result.stderr).toMatchObject({ tests: '2', failures: '1', errors: '0', skipped: '0' });
      expect(cases.map(({ attributes }) => [attributes.classname, attributes.name])).toEqual([
        ['paths.auth', wrongCode],
        ['paths.auth', signIn],
      ]);
      expect(cases[0]!.children).toBe(0);
      const failure = cases[1]!.failure!;
      expect(failure.message).toMatch(
        new RegExp(
          `^step ${step}: expected the portal \\('Logout' in the header\\) shows .*alerts 'Invalid TOTP code\\. Please try again\\.', at /login$`,
        ),
      );
      const screenshot = path.join(folder, `${signIn}-step-${step}.png`);
      expect(failure.text).toContain(
        [`Step ${step}: ${said(words.action)}`, `Expected: ${said(words.expected)}`, `Screenshot: ${screenshot}`].join('\n'),
      );
      expect(cases[1]!.systemOut).toBe(`[[ATTACHMENT|${screenshot}]]`);
      expect(pngSize(screenshot)).not.toBeNull();
      expect(result.stderr).toContain('1 passed, 1 failed, 0 skipped');
      expect(result.status).toBe(1);
    },
  );
});
