// The reference API's contract tests (server/routes/*.test.ts and the cross-cutting ones beside
// them): a fresh test server with the fixtures before each test, calls with JSON or raw bodies,
// checks of the error answers in Django REST Framework's form, and the ways to a partial or a
// verified token pair for a fixture user.
import { decodeJwt, SignJWT, type JWTPayload } from 'jose';
import { expect } from 'vitest';
import { errorBodySchema, tokenPairSchema, type ErrorBody, type TokenPair } from '../../src/api/schemas.ts';
import { accessClaimsSchema, type AccessClaims } from '../../src/domain/access-claims.ts';
import type { Answer } from './api-calls.ts';
import {
  API,
  newestCode,
  signIn,
  totpCode,
  useFixtureServer,
  type FixtureServer,
  type FixtureUser,
  type FixtureUserName,
} from './api-server.ts';

export const MINUTE = 60_000;
export const TOTP_STEP = 30_000;
/** 2026-11-05 and 2026-11-06 at local midnight in UTC+1, as the SPA sends day starts. */
export const NOV_5 = '2026-11-05T00:00:00.000+01:00';
export const NOV_6 = '2026-11-06T00:00:00.000+01:00';

export const REQUIRED = ['This field is required.'];
export const BLANK = ['This field may not be blank.'];
export const NOT_A_STRING = ['Not a valid string.'];
export const NOT_FOUND = 'Not found.';

// --- Answers ------------------------------------------------------------------------------

/** A DRF error answer: the status, and a JSON object of strings or lists of strings. */
export function errorOf(answer: Answer, status: number): ErrorBody {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  return errorBodySchema.parse(answer.body);
}

/** A `{"detail": "..."}` answer. */
export function expectDetail(answer: Answer, status: number, text?: string | RegExp): string {
  const body = errorOf(answer, status);
  const detail = body.detail;
  if (typeof detail !== 'string') throw new Error(`No detail in ${JSON.stringify(body)}`);
  if (typeof text === 'string') expect(detail).toBe(text);
  else if (text) expect(detail).toMatch(text);
  return detail;
}

/** A 400 with field errors: exactly `fields`, each a non-empty list of messages. */
export function expectFieldErrors(answer: Answer, fields: Record<string, string[] | true>): ErrorBody {
  const body = errorOf(answer, 400);
  expect(Object.keys(body).sort()).toEqual(Object.keys(fields).sort());
  for (const [field, expected] of Object.entries(fields)) {
    const messages = body[field];
    expect(Array.isArray(messages) && messages.length > 0).toBe(true);
    if (expected !== true) expect(messages).toEqual(expected);
  }
  return body;
}

/** The ids of a list answer, in its order. */
export const ids = (body: unknown) => (body as { id: number }[]).map((item) => item.id);

// --- Tokens -------------------------------------------------------------------------------

export function claimsOf(access: string): { raw: JWTPayload; claims: AccessClaims } {
  const raw = decodeJwt(access);
  return { raw, claims: accessClaimsSchema.parse(raw) };
}

/** A 200 answering a 2FA-verified token pair whose access token carries `claims`; answers the pair. */
export function expectVerifiedPair(answer: Answer, claims: Partial<AccessClaims>): TokenPair {
  expect(answer.status).toBe(200);
  const pair = tokenPairSchema.parse(answer.body);
  expect(claimsOf(pair.access).claims).toMatchObject({ ...claims, is_2fa_verified: true });
  return pair;
}

/** A token with the claims of `access` but signed with another key. */
export async function forged(access: string): Promise<string> {
  return new SignJWT({ ...decodeJwt(access) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode('not-the-server-secret-0123456789abcdef'));
}

/** A token with the claims of `access` and no signature at all (alg none). */
export function unsigned(access: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(decodeJwt(access))}.`;
}

// --- The server of each test --------------------------------------------------------------

export interface CallOptions {
  access?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is, with `contentType` (if any). */
  raw?: string | Uint8Array;
  contentType?: string;
  /** Sent as JSON as this stream gives it, with its length announced (a body that comes slowly). */
  jsonStream?: { stream: ReadableStream<Uint8Array<ArrayBuffer>>; length: number };
  query?: Record<string, string>;
}

/** A POST whose JSON body is held back: its headers, Content-Length included, are in. */
export interface HeldPost {
  /** Resolves once the server reads the body: its handler has started, and waits for it. */
  reading: Promise<void>;
  /** Sends the body, and resolves with the answer. */
  send(): Promise<Answer>;
}

export interface ContractApi extends FixtureServer {
  /** Calls `API/path`; a JSON answer is parsed, any other is read as an ArrayBuffer. */
  call: (method: 'GET' | 'POST', path: string, options?: CallOptions) => Promise<Answer>;
  get: (path: string, access?: string, query?: Record<string, string>) => Promise<Answer>;
  post: (path: string, json?: unknown, access?: string) => Promise<Answer>;
  /** A POST of JSON whose body comes only when the test sends it. */
  postHeld: (path: string, json: unknown, access?: string) => HeldPost;
  user: (name: FixtureUserName) => FixtureUser;
  /** The partial pair of a password sign-in. */
  passwordPair: (name: FixtureUserName) => Promise<TokenPair>;
  /** A verified pair; 'fresh' (no 2FA yet) sets up TOTP on the way. */
  verifiedPair: (name: FixtureUserName) => Promise<TokenPair>;
  /** The user's TOTP code at the server clock's time, moved by `offsetMs`. */
  nowCode: (name: FixtureUserName, offsetMs?: number) => Promise<string>;
  /** The newest code e-mailed to `email`. */
  mailedCode: (email: string) => string;
}

/** A new test server with the fixtures before each test of the calling file. */
export function useContractApi(): ContractApi {
  const fixtures = useFixtureServer();

  async function call(method: 'GET' | 'POST', path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.access) headers.Authorization = `Bearer ${options.access}`;
    let body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array<ArrayBuffer>> | undefined;
    if (options.jsonStream) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(options.jsonStream.length);
      body = options.jsonStream.stream;
    } else if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.raw !== undefined) {
      if (options.contentType) headers['Content-Type'] = options.contentType;
      // Bytes are copied into a view of a plain ArrayBuffer: the DOM's BodyInit takes no other.
      body = typeof options.raw === 'string' ? options.raw : new Uint8Array(options.raw);
    }
    const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
    // duplex: a stream body goes out as it comes (the DOM's RequestInit does not list it yet).
    const init = { method, headers, body, duplex: 'half' } as RequestInit;
    const response = await fixtures.server.fetch(`${API}/${path}${query}`, init);
    const type = response.headers.get('content-type') ?? '';
    const parsed: unknown = type.includes('application/json') ? await response.json() : await response.arrayBuffer();
    return { status: response.status, headers: response.headers, body: parsed };
  }

  const get = (path: string, access?: string, query?: Record<string, string>) => call('GET', path, { access, query });
  const post = (path: string, json?: unknown, access?: string) => call('POST', path, { access, json });
  const user = (name: FixtureUserName) => fixtures.fx.users[name];

  function postHeld(path: string, json: unknown, access?: string): HeldPost {
    const bytes = new TextEncoder().encode(JSON.stringify(json));
    let reading!: () => void;
    let release!: () => void;
    const read = new Promise<void>((resolve) => (reading = resolve));
    const sent = new Promise<void>((resolve) => (release = resolve));
    // highWaterMark 0: pulled only when the server reads it.
    const stream = new ReadableStream<Uint8Array<ArrayBuffer>>(
      {
        async pull(controller) {
          reading();
          await sent;
          controller.enqueue(bytes);
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const answer = call('POST', path, { access, jsonStream: { stream, length: bytes.length } });
    return {
      reading: read,
      send: () => {
        release();
        return answer;
      },
    };
  }

  function secretOf(name: FixtureUserName): string {
    const secret = user(name).totpSecret;
    if (!secret) throw new Error(`${name} has no TOTP secret`);
    return secret;
  }

  async function passwordPair(name: FixtureUserName): Promise<TokenPair> {
    const answer = await post('token/', { username: user(name).username, password: user(name).password });
    expect(answer.status).toBe(200);
    return tokenPairSchema.parse(answer.body);
  }

  return {
    get server() {
      return fixtures.server;
    },
    get fx() {
      return fixtures.fx;
    },
    restart: fixtures.restart,
    call,
    get,
    post,
    postHeld,
    user,
    passwordPair,
    verifiedPair: (name) => signIn(fixtures.server, user(name).username, user(name).password, name === 'fresh' ? 'totp' : undefined),
    nowCode: (name, offsetMs = 0) => totpCode(secretOf(name), fixtures.server.clock.now() + offsetMs),
    mailedCode: (email) => newestCode(fixtures.server, email),
  };
}
