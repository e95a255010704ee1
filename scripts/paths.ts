// npm run paths [-- --json | --steps [--format text|csv|markdown] | --run ID[,ID...] [--base URL]
// [--reporter lines|junit] [--output FILE] [--screenshots DIR]] [-- --machine NAME] [--help]: the
// test paths generated from each machine, under the ids their model-based tests carry
// (scripts/paths-report.ts); --run replays them in Chromium (scripts/paths-run.ts), one line per
// path (`PASS ID`, `FAIL ID: step N: ...; screenshot FILE`, `SKIP ID: ...`) or, with --reporter
// junit, JUnit XML (scripts/paths-junit.ts) on stdout instead, or in FILE with --output (the lines
// then stay on stdout). Each failing step leaves a full-page PNG in DIR (test-results/paths
// unless given). A bad argument or an unknown machine or path: a message on stderr and exit code 2.
import fs from 'node:fs';
import path from 'node:path';
import { parsePathsArgs, runPaths, UsageError, type PathsOptions } from './paths-report.ts';

const args = process.argv.slice(2);
let options: PathsOptions | null = null;
try {
  options = parsePathsArgs(args);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
}

if (options?.run && !options.help) {
  const { run, base, reporter, output, screenshots } = options;
  const xmlOnStdout = reporter === 'junit' && output === null;
  try {
    // The browser's side loads only when a path is to run.
    const { runPathsInBrowser } = await import('./paths-run.ts');
    const { results, code, startedAt, seconds } = await runPathsInBrowser({
      ids: run,
      base,
      screenshots,
      print: (line) => {
        if (!xmlOnStdout) process.stdout.write(`${line}\n`);
      },
      note: (line) => process.stderr.write(`${line}\n`),
    });
    if (reporter === 'junit') {
      const { junitXml } = await import('./paths-junit.ts');
      const xml = junitXml({ results, startedAt, seconds });
      if (output === null) process.stdout.write(xml);
      else {
        fs.mkdirSync(path.dirname(path.resolve(output)), { recursive: true });
        fs.writeFileSync(output, xml);
      }
    }
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
