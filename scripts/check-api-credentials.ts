// Where check-api's password and codes come from: CHECK_API_PASSWORD, else a prompt that does not
// show what is typed; a TOTP code made from CHECK_API_TOTP_SECRET (the authenticator app's base32
// secret), else a prompt for the app's code; an e-mailed code always from a prompt, once the API
// has sent it. Prompts go to standard error, so that standard output is the report alone.
import readline from 'node:readline/promises';
import { Writable } from 'node:stream';
import { generate } from 'otplib';
import { CannotRun, type Credentials } from './check-api-walk.ts';

/** Asks a question and answers the line typed; `hidden`: what is typed is not shown. */
export type Ask = (question: string, options: { hidden: boolean }) => Promise<string>;

export interface CredentialEnv {
  CHECK_API_PASSWORD?: string;
  CHECK_API_TOTP_SECRET?: string;
}

/** `user`'s credentials from `env`, asking for what it does not hold; TOTP codes at the time `now` gives. */
export function credentialsFrom(user: string, env: CredentialEnv, ask: Ask, now: () => number = Date.now): Credentials {
  const given = (value: string | undefined) => (value?.trim() ? value : null);
  return {
    password: async () => given(env.CHECK_API_PASSWORD) ?? (await ask(`Password for ${user}: `, { hidden: true })),
    totpCode: async () => {
      const secret = given(env.CHECK_API_TOTP_SECRET)?.replace(/[\s-]/g, '').toUpperCase();
      if (!secret) return ask(`Code of ${user}'s authenticator app: `, { hidden: false });
      try {
        return await generate({ secret, epoch: Math.floor(now() / 1000) });
      } catch {
        throw new CannotRun('CHECK_API_TOTP_SECRET is not a base32 TOTP secret');
      }
    },
    emailCode: () => ask(`Code e-mailed to ${user}: `, { hidden: false }),
  };
}

/**
 * Questions on standard error, answers from standard input: a line each, what is typed at a hidden
 * question not echoed on a terminal. One reader for the whole run, which keeps the lines piped in
 * until they are asked for. Ctrl-C or the end of the input leaves the question unanswered.
 */
export function terminalAsk(): { ask: Ask; close: () => void } {
  let muted = false;
  let cancelled = false;
  // readline echoes what is typed to its output: shown, or (at a hidden question) dropped.
  const echo = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  let reader: { rl: readline.Interface; lines: AsyncIterator<string> } | null = null;
  const open = () => {
    if (reader) return reader;
    const rl = readline.createInterface({ input: process.stdin, output: echo, terminal: process.stdin.isTTY === true });
    rl.once('SIGINT', () => {
      cancelled = true;
      rl.close();
    });
    reader = { rl, lines: rl[Symbol.asyncIterator]() };
    return reader;
  };

  const ask: Ask = async (question, { hidden }) => {
    const { rl, lines } = open();
    // A hidden question is written here, past the muted echo; a shown one is readline's prompt,
    // which it redraws with the line as it is edited.
    muted = hidden;
    if (hidden) process.stderr.write(question);
    rl.setPrompt(hidden ? '' : question);
    rl.prompt();
    const line = await lines.next().finally(() => {
      muted = false;
      // A terminal echoes the end of a line shown; the other questions' lines end here.
      if (hidden || !process.stdin.isTTY) process.stderr.write('\n');
    });
    if (line.done) throw new CannotRun(cancelled ? 'cancelled' : `no answer to "${question.trim()}"`);
    return line.value.trim();
  };
  return { ask, close: () => reader?.rl.close() };
}
