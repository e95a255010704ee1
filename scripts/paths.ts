// npm run paths [-- --json | --steps [--format text|csv|markdown] | --run ID[,ID...] [--base URL]]
// [-- --machine NAME]: the test paths generated from each machine, under the ids their model-based
// tests carry (scripts/paths-report.ts); --run replays them in Chromium (scripts/paths-run.ts). A
// bad argument or an unknown machine or path: a message on stderr and exit code 2.
import { parsePathsArgs, runPaths, UsageError } from './paths-report.ts';

const args = process.argv.slice(2);
let run: string[] | null = null;
let base: string | null = null;
try {
  ({ run, base } = parsePathsArgs(args));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
}

if (run) {
  try {
    // The browser's side loads only when a path is to run.
    const { runPathsInBrowser } = await import('./paths-run.ts');
    const { code } = await runPathsInBrowser({
      ids: run,
      base,
      print: (line) => process.stdout.write(`${line}\n`),
      note: (line) => process.stderr.write(`${line}\n`),
    });
    process.exitCode = code;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
  }
} else {
  const { stdout, stderr, code } = runPaths(args);
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = code;
}
