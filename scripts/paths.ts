// npm run paths [-- --json] [-- --machine NAME]: the test paths generated from each machine, under
// the ids their model-based tests carry (scripts/paths-report.ts). A bad argument or an unknown
// machine: a message on stderr and exit code 2.
import { runPaths } from './paths-report.ts';

const { stdout, stderr, code } = runPaths(process.argv.slice(2));
process.stdout.write(stdout);
process.stderr.write(stderr);
process.exitCode = code;
