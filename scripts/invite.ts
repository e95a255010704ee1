// `npm run invite -- AFFILIATE_ID`: creates an invite link for an existing affiliate (14 days).
// Reads DATABASE_PATH (default data/portal.sqlite) and PUBLIC_URL or PORT for the printed link.
import fs from 'node:fs';
import { DateTime } from 'luxon';
import { openDatabase, type Db } from '../server/db.ts';
import { createInvite } from '../server/seed.ts';

const USAGE = 'Usage: npm run invite -- AFFILIATE_ID';

function knownAffiliates(db: Db): string {
  const rows = db.prepare('SELECT affiliate_id, name FROM affiliates ORDER BY affiliate_id').all() as {
    affiliate_id: string;
    name: string;
  }[];
  if (rows.length === 0) return 'The database has no affiliates yet: start the server once (npm start) to seed the demo data.';
  return ['Known affiliates:', ...rows.map((row) => `  ${row.affiliate_id}  ${row.name}`)].join('\n');
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function main(): void {
  const databasePath = process.env.DATABASE_PATH ?? 'data/portal.sqlite';
  // Opening a missing file would create an empty database; say what to do instead.
  if (!fs.existsSync(databasePath)) fail(`No database at ${databasePath}: start the server once (npm start) or set DATABASE_PATH.`);
  const db = openDatabase(databasePath);
  try {
    const affiliateId = process.argv[2]?.trim();
    if (!affiliateId) fail(`${USAGE}\n${knownAffiliates(db)}`);
    const exists = db.prepare('SELECT 1 FROM affiliates WHERE affiliate_id = ?').get(affiliateId);
    if (!exists) fail(`Unknown affiliate: ${affiliateId}\n${knownAffiliates(db)}`);

    const now = Date.now();
    const inviteId = createInvite(db, affiliateId, { now });
    const { expires_at: expiresAt } = db.prepare('SELECT expires_at FROM invites WHERE id = ?').get(inviteId) as { expires_at: number };
    const baseUrl = process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? '8080'}`;
    console.log(`Invite for ${affiliateId}: ${baseUrl.replace(/\/+$/, '')}/invite/${inviteId}`);
    console.log(`Expires ${DateTime.fromMillis(expiresAt).toFormat('yyyy-MM-dd HH:mm ZZZZ')}`);
  } finally {
    db.close();
  }
}

main();
