// What every route module is given: the database, the clock, tokens, throttling, mail and the
// turns of password hashes.
import type { Db } from './db.ts';
import type { HashGate } from './hash-gate.ts';
import type { Mailer } from './mail.ts';
import type { Throttle } from './throttle.ts';
import type { AccessTokenClaims, TokenService } from './tokens.ts';
import type { UserRow } from './users.ts';

export interface ServerContext {
  db: Db;
  /** Milliseconds since the epoch; tests move it. */
  now: () => number;
  tokens: TokenService;
  throttle: Throttle;
  mail: Mailer;
  /** Password hashes take turns: a core stays free for everyone else. */
  hashing: HashGate;
  demo: boolean;
  /** Takes the client address from X-Forwarded-For (behind one reverse proxy). */
  trustProxy: boolean;
}

/** The affiliates a request may see: every one (a superuser not viewing as anyone) or a list. */
export type Scope = { all: true } | { all: false; affiliateIds: string[] };

export interface AppEnv {
  Variables: {
    user: UserRow;
    claims: AccessTokenClaims;
    scope: Scope;
  };
}
