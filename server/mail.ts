// The outbox: every e-mail the server sends is printed on the console and kept in the database,
// where demo mode lists it at GET /__dev/outbox.
import type { Db } from './db.ts';

export interface OutboxMessage {
  id: number;
  to: string;
  subject: string;
  body: string;
  code: string | null;
  created: string;
}

export interface Mailer {
  send(message: { to: string; subject: string; body: string; code?: string }): void;
  list(to?: string): OutboxMessage[];
}

export function createMailer(db: Db, now: () => number, print: (line: string) => void): Mailer {
  const insert = db.prepare('INSERT INTO outbox (to_email, subject, body, code, created_at) VALUES (?, ?, ?, ?, ?)');
  const select = db.prepare<
    [string | null, string | null],
    { id: number; to_email: string; subject: string; body: string; code: string | null; created_at: number }
  >('SELECT * FROM outbox WHERE ? IS NULL OR to_email = ? COLLATE NOCASE ORDER BY id DESC LIMIT 100');
  return {
    send({ to, subject, body, code }) {
      insert.run(to, subject, body, code ?? null, now());
      print(`[outbox] to ${to}: ${subject}${code ? ` (code ${code})` : ''}`);
    },
    list(to) {
      return select.all(to ?? null, to ?? null).map((row) => ({
        id: row.id,
        to: row.to_email,
        subject: row.subject,
        body: row.body,
        code: row.code,
        created: new Date(row.created_at).toISOString(),
      }));
    },
  };
}
