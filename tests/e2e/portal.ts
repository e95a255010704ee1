// The portal under test: the built dist/ served by the reference server on a free port, with a
// fresh database seeded with the demo data. Codes come the way a user gets them: TOTP computed
// from the demo secret, e-mailed codes read from the outbox.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import { startServer, type RunningServer } from '../../server/index.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../server/seed.ts';

export const DIST = path.resolve(import.meta.dirname, '../../dist');

export interface Portal extends RunningServer {
  /** The newest code e-mailed to the address, waiting for it to arrive. */
  emailCode(email: string, after?: string | null): Promise<string>;
}

export async function startPortal(
  options: { accessLifetimeSeconds?: number; tokenClockOffsetSeconds?: number; seedAffiliates?: number } = {},
): Promise<Portal> {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) throw new Error('dist/ is missing: the e2e global setup builds it');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const server = await startServer({
    port: 0,
    databasePath: path.join(dir, 'portal.sqlite'),
    distDir: DIST,
    demo: true,
    accessLifetimeSeconds: options.accessLifetimeSeconds,
    tokenClockOffsetSeconds: options.tokenClockOffsetSeconds,
    seedAffiliates: options.seedAffiliates,
    log: () => {},
  });
  return {
    ...server,
    async emailCode(email, after = null) {
      for (let attempt = 0; attempt < 50; attempt++) {
        const response = await fetch(`${server.url}/__dev/outbox?to=${encodeURIComponent(email)}`);
        const messages = (await response.json()) as { code: string | null }[];
        const code = messages[0]?.code ?? null;
        if (code && code !== after) return code;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`No e-mailed code arrived for ${email}`);
    },
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const password = DEMO_PASSWORD;

export function account(username: string) {
  const found = DEMO_ACCOUNTS.find((candidate) => candidate.username === username);
  if (!found) throw new Error(`No demo account ${username}`);
  return found;
}

/** A TOTP code for the secret; `offsetSteps` moves to a neighbouring 30 s step (each code works once). */
export function totp(secret: string, offsetSteps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
}
