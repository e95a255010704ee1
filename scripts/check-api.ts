// `npm run check-api -- --base URL --user NAME`: checks, before the portal is pointed at it, that
// a v2 API answers the calls the portal reads in shapes the portal reads (check-api-walk.ts).
// The password comes from CHECK_API_PASSWORD or a hidden prompt; the second factor from
// CHECK_API_TOTP_SECRET (base32) or a prompt for the code (e-mailed, or the authenticator app's).
// Prints one line a call and 'N calls, M mismatches'; exits 0 when every answer is one the portal
// reads, 1 when one is not, 2 when the check could not run (one line on standard error says why).
import { parseArgs } from 'node:util';
import { credentialsFrom, terminalAsk } from './check-api-credentials.ts';
import { checkApi, type CheckResult } from './check-api-walk.ts';

const USAGE = 'Usage: npm run check-api -- --base http://host:8080/api/v2/ --user NAME';

async function main(): Promise<CheckResult> {
  let values: { base?: string; user?: string };
  try {
    ({ values } = parseArgs({ options: { base: { type: 'string' }, user: { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch (error) {
    return { exitCode: 2, reason: `${error instanceof Error ? error.message : String(error)}. ${USAGE}` };
  }
  const { base, user } = values;
  if (!base || !user) return { exitCode: 2, reason: USAGE };
  const terminal = terminalAsk();
  try {
    return await checkApi({
      base,
      user,
      credentials: credentialsFrom(user, process.env, terminal.ask),
      write: (line) => console.log(line),
    });
  } finally {
    terminal.close();
  }
}

const result = await main();
if (result.reason) process.stderr.write(`check-api: ${result.reason}\n`);
process.exitCode = result.exitCode;
