// Password hashes with node:crypto's scrypt: "scrypt$<salt hex>$<hash hex>". Requests hash on
// libuv's thread pool (crypto.scrypt), never on the event loop: a hash takes tens of
// milliseconds, and every other request would wait for it.
import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;
// N=2^14 is scrypt's interactive-login cost.
const COST: ScryptOptions = { N: 16384, r: 8, p: 1 };

function scryptAsync(password: string, salt: Buffer, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, COST, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const format = (salt: Buffer, hash: Buffer) => `scrypt$${salt.toString('hex')}$${hash.toString('hex')}`;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return format(salt, await scryptAsync(password, salt, KEY_LENGTH));
}

/** The same hash on the calling thread: for start-up and test fixtures, never for a request. */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(16);
  return format(salt, scryptSync(password, salt, KEY_LENGTH, COST));
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, saltHex, hashHex] = stored.split('$');
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, 'hex');
  const actual = await scryptAsync(password, Buffer.from(saltHex, 'hex'), expected.length);
  return timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | undefined;

/**
 * Spends the same hash as `verifyPassword` and answers false: for a login that names no
 * account, so that its answer takes as long as a wrong password's and tells nothing.
 */
export async function verifyNoPassword(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummy);
  return false;
}
