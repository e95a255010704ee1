// The server settings `npm start` and `npm run dev` read from the environment, and the banner
// they print: the URL, the demo accounts and the invite link.
import { DEMO_ACCOUNTS, DEMO_INVITE_ID, DEMO_PASSWORD } from '../server/seed.ts';

export interface EnvConfig {
  port: number;
  hostname: string;
  databasePath: string;
  demo: boolean;
  accessLifetimeSeconds: number | undefined;
  /** TRUST_PROXY=1: behind one reverse proxy, throttles read the client address from X-Forwarded-For. */
  trustProxy: boolean;
}

function positiveInteger(name: string, fallback: number | undefined): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

export function readServerConfig(defaultPort: number): EnvConfig {
  return {
    port: positiveInteger('PORT', defaultPort) ?? defaultPort,
    hostname: process.env.HOST ?? '127.0.0.1',
    databasePath: process.env.DATABASE_PATH ?? 'data/portal.sqlite',
    // npm start is the demo: seeded data and the outbox, unless DEMO=0.
    demo: process.env.DEMO !== '0',
    accessLifetimeSeconds: positiveInteger('ACCESS_TOKEN_LIFETIME', undefined),
    trustProxy: process.env.TRUST_PROXY === '1',
  };
}

export function banner(url: string, demo: boolean): string {
  const lines = [``, `  Affiliate portal running at ${url}`, ``];
  if (demo) {
    lines.push(`  Demo accounts (password "${DEMO_PASSWORD}"):`);
    for (const account of DEMO_ACCOUNTS) {
      const secret = account.totpSecret ? ` — TOTP secret ${account.totpSecret}` : '';
      lines.push(`    ${account.username.padEnd(14)} ${account.description}${secret}`);
    }
    lines.push(``, `  Invite link:   ${url}/invite/${DEMO_INVITE_ID}`);
    lines.push(`  E-mail outbox: ${url}/__dev/outbox (codes are also printed below)`, ``);
  }
  lines.push(`  Press Ctrl-C to stop.`, ``);
  return lines.join('\n');
}

/** Stops cleanly on Ctrl-C or a termination signal. */
export function stopOnSignals(close: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log('\n  Stopping…');
      void close().then(() => process.exit(0));
    });
  }
}
