// Users as stored, and the look-ups the routes share.
import type { Db } from './db.ts';

export interface UserRow {
  id: number;
  username: string;
  email: string;
  password_hash: string;
  affiliate_id: string | null;
  is_superuser: number;
  twofa_method: 'totp' | 'email' | null;
  totp_secret: string | null;
  totp_last_step: number;
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return db.prepare<[number], UserRow>('SELECT * FROM users WHERE id = ?').get(id);
}

/** Sign-in accepts the username or the e-mail address, case-insensitively. */
export function findUserByLogin(db: Db, login: string): UserRow | undefined {
  return db.prepare<[string, string], UserRow>('SELECT * FROM users WHERE username = ? OR email = ?').get(login, login);
}
