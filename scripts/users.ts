// `npm run users -- COMMAND`: the support tasks, against the database at DATABASE_PATH (default
// data/portal.sqlite), while the server runs or not. USER is a username or an e-mail address.
//   list                 every account: username, e-mail, affiliate, 2FA method, active
//   set-password USER    a new password, from standard input or a hidden prompt, never the command line
//   reset-2fa USER       clears the second factor: the user sets it up again at the next sign-in
//   disable USER         the account cannot sign in
//   enable USER          it can again
//   remove-demo          removes the demo accounts and the demo invite, before serving with DEMO=0
// set-password, reset-2fa and disable end every session of the account at once. Each command
// prints one line saying what it did (remove-demo one a kind of row); a refusal exits with status 1
// and one line saying why.
import fs from 'node:fs';
import { openDatabase, type Db } from '../server/db.ts';
import { removeDemo } from '../server/demo-data.ts';
import { DEMO_INVITE_ID } from '../server/seed.ts';
import { listUsers, passwordRefusals, resetTwoFactor, setActive, setPassword } from '../server/user-admin.ts';
import { configuredMethod, findUserByLogin, type UserRow } from '../server/users.ts';

const USAGE = 'Usage: npm run users -- list | set-password USER | reset-2fa USER | disable USER | enable USER | remove-demo';

class Refusal extends Error {}

function account(db: Db, login: string | undefined): UserRow {
  if (!login) throw new Refusal(USAGE);
  const user = findUserByLogin(db, login);
  if (!user) throw new Refusal(`No account has the username or e-mail address "${login}" (npm run users -- list shows them).`);
  return user;
}

const named = (user: UserRow) => (user.username === user.email ? user.username : `${user.username} (${user.email})`);

function list(db: Db): string {
  const users = listUsers(db);
  if (users.length === 0) return 'No accounts yet.';
  const rows = [
    ['USERNAME', 'E-MAIL', 'AFFILIATE', '2FA', 'ACTIVE'],
    ...users.map((user) => [
      user.username,
      user.email,
      user.affiliate ?? (user.superuser ? '(superuser)' : '-'),
      user.method ?? 'none',
      user.active ? 'yes' : 'no',
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Removes the demo's accounts and invite; says what went, one line a kind. */
function removeDemoAccounts(db: Db): string {
  const removed = removeDemo(db);
  if (removed.accounts.length === 0 && !removed.invite) return 'Nothing to remove: this database holds no demo account and no demo invite.';
  return [
    removed.accounts.length > 0
      ? `Removed ${counted(removed.accounts.length, 'demo account', 'demo accounts')}: ${removed.accounts.join(', ')}; their tokens are refused from now on.`
      : 'Removed no demo account: none was left.',
    `Removed ${counted(removed.devices, 'two-factor device', 'two-factor devices')}.`,
    `Removed ${counted(removed.emailCodes, 'e-mailed code', 'e-mailed codes')}.`,
    `Removed ${counted(removed.refreshTokens, 'refresh token', 'refresh tokens')}.`,
    `Removed ${counted(removed.outbox, 'e-mail', 'e-mails')} from the outbox.`,
    `Removed ${counted(removed.throttleRows, 'throttle count', 'throttle counts')}.`,
    removed.invite ? `Removed the demo invite ${DEMO_INVITE_ID}.` : 'Removed no demo invite: it was gone already.',
    "Kept the demo's affiliates with their sales and reports: they let no one sign in.",
  ].join('\n');
}

/** Reads a line from the terminal without showing it. */
function hiddenLine(prompt: string): Promise<string> {
  const input = process.stdin;
  // Echo off before the prompt shows: nothing typed after it is shown.
  input.setRawMode(true);
  process.stderr.write(prompt);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let line = '';
    const done = (result: () => void) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      result();
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done(() => resolve(line));
        // Ctrl-C or Ctrl-D: nothing is changed.
        if (char === '\u0003' || char === '\u0004') return done(() => reject(new Refusal('Cancelled: the password was not changed.')));
        if (char === '\u007f' || char === '\b') line = Array.from(line).slice(0, -1).join('');
        else line += char;
      }
    };
    input.on('data', onData);
  });
}

/** The new password: the first line of standard input, or typed twice at a hidden prompt. */
async function newPassword(user: UserRow): Promise<string> {
  if (!process.stdin.isTTY) return fs.readFileSync(0, 'utf8').split(/\r?\n/)[0] ?? '';
  const first = await hiddenLine(`New password for ${user.username}: `);
  const again = await hiddenLine('The same password again: ');
  if (first !== again) throw new Refusal('The two passwords differ: the password was not changed.');
  return first;
}

async function run(db: Db, [command, login, ...rest]: string[]): Promise<string> {
  if (command === 'list' && login === undefined) return list(db);
  if (command === 'remove-demo' && login === undefined) return removeDemoAccounts(db);
  if (rest.length > 0 || !['set-password', 'reset-2fa', 'disable', 'enable'].includes(command ?? '')) {
    // A password on the command line would stay in the shell's history and the process list.
    if (command === 'set-password' && rest.length > 0) {
      throw new Refusal('set-password reads the password from standard input or a prompt, never from the command line.');
    }
    throw new Refusal(USAGE);
  }
  const user = account(db, login);
  switch (command) {
    case 'set-password': {
      const password = await newPassword(user);
      const refusals = await passwordRefusals(user, password);
      if (refusals.length > 0) throw new Refusal(`Password refused for ${user.username}: ${refusals.join(' ')}`);
      await setPassword(db, user, password);
      return `Password set for ${named(user)}; every session of theirs has ended.`;
    }
    case 'reset-2fa': {
      const method = configuredMethod(user);
      resetTwoFactor(db, user);
      return method
        ? `Two-factor authentication (${method === 'totp' ? 'authenticator app' : 'e-mailed codes'}) cleared for ${named(user)}; every session of theirs has ended, and they set it up again at their next sign-in.`
        : `${named(user)} had no two-factor method set up; every session of theirs has ended, and they set one up at their next sign-in.`;
    }
    case 'disable':
      return setActive(db, user, false)
        ? `${named(user)} is disabled: they cannot sign in, and every session of theirs has ended.`
        : `${named(user)} was disabled already; nothing changed.`;
    default:
      return setActive(db, user, true)
        ? `${named(user)} is enabled: they can sign in again.`
        : `${named(user)} was enabled already; nothing changed.`;
  }
}

async function main(): Promise<void> {
  const databasePath = process.env.DATABASE_PATH ?? 'data/portal.sqlite';
  // Opening a missing file would create an empty database; say what to do instead.
  if (!fs.existsSync(databasePath)) {
    process.stderr.write(`No database at ${databasePath}: start the server once (npm start) or set DATABASE_PATH.\n`);
    process.exit(1);
  }
  const db = openDatabase(databasePath);
  try {
    console.log(await run(db, process.argv.slice(2)));
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  } finally {
    db.close();
  }
}

await main();
