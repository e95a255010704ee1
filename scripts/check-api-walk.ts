// check-api's walk: the calls of spec section 7 that read, made to a v2 API the way the portal
// makes them (its client, its query, its call functions) and each answer checked with the schema
// the portal reads it with. It signs in (password, then the second factor), refreshes the token,
// reads the affiliates, the last 30 days' payment events and connection fees, the reports and the
// newest report's file, looks up an invite that does not exist, and for a superuser reads the
// affiliates as one of them. It writes nothing on the API but the sign-in itself (and, for an
// e-mail user, the code sent): no 2FA setup, no registration, no invite used.
// One line a call, 'OK   ' or 'FAIL ', then 'N calls, M mismatches'. A call it has nothing to make
// with (a download without a report) is not made, and the line before says so.
import { randomUUID } from 'node:crypto';
import { jwtDecode } from 'jwt-decode';
import { DateTime } from 'luxon';
import type * as z from 'zod/mini';
import { ApiError, createApiClient, type ApiClient } from '../src/api/client.ts';
import { createInviteApi } from '../src/api/invites.ts';
import { downloadReport, reportFileName } from '../src/api/reports.ts';
import {
  affiliateListSchema,
  affiliateReportListSchema,
  connectionFeeListSchema,
  loginResponseSchema,
  paymentEventListSchema,
  refreshResponseSchema,
  tokenPairSchema,
  type AffiliateReport,
} from '../src/api/schemas.ts';
import { accessClaimsSchema, type AccessClaims } from '../src/domain/access-claims.ts';
import { dateRange, toQuery } from '../src/domain/dates.ts';
import { describeIssues, described } from './check-api-issues.ts';

/** Where the password and the second factor's code come from: the environment, a prompt, a test. */
export interface Credentials {
  password(): Promise<string>;
  /** The authenticator app's code of the moment. */
  totpCode(): Promise<string>;
  /** The code token/send-email/ has just sent. */
  emailCode(): Promise<string>;
}

export interface CheckOptions {
  /** The v2 API's base, with or without its trailing slash: 'http://host:8080/api/v2/'. */
  base: string;
  user: string;
  credentials: Credentials;
  /** Takes each line of the report. */
  write: (line: string) => void;
  fetch?: typeof fetch;
  /** The time the last 30 days count back from; now by default. */
  now?: () => number;
}

/** 0: every answer is one the portal reads; 1: some are not; 2: the walk could not run, `reason` says why. */
export type CheckResult = { exitCode: 0 | 1; reason?: undefined } | { exitCode: 2; reason: string };

/** The walk cannot go on for a reason that is no mismatch: no answer, refused credentials, bad input. */
export class CannotRun extends Error {}

/** A sign-in answer the portal cannot read: the walk stops there, a mismatch. */
class Stopped extends Error {}

/** A call gets this long to answer, its body read too: a long list on a slow link takes a while. */
const CALL_TIMEOUT_MS = 60_000;

/** What a report download's Content-Type may be, when the API sends one: the spreadsheet's, or any file's. */
const FILE_TYPES = ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/zip', 'application/octet-stream'];

/** A call whose answer is JSON: the request, the portal's schema for its answer, and what a passing answer says. */
interface JsonCall<T> {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Sent with the session's bearer token (and impersonate_affiliate while it views as one). */
  auth: boolean;
  schema: z.ZodMiniType<T>;
  /** The access token an answer carries, which the portal decodes, and where it sits. */
  token?: (answer: T) => { at: string; access: string; verified: boolean };
  summary: (answer: T) => string;
}

/** A range of local days as the dashboard asks for it: `start` and `end` as luxon's ISO with offset. */
type RangeQuery = { start: string; end: string };

const plural = (count: number, noun: string, nouns = `${noun}s`) => `${count} ${count === 1 ? noun : nouns}`;

/** The calls whose answers are JSON, in the order of the walk. */
const calls = {
  login: (username: string, password: string): JsonCall<z.infer<typeof loginResponseSchema>> => ({
    method: 'POST',
    path: 'token/',
    body: { username, password },
    auth: false,
    schema: loginResponseSchema,
    token: (answer) =>
      'tokens' in answer
        ? { at: '.tokens.access', access: answer.tokens.access, verified: false }
        : { at: '.access', access: answer.access, verified: false },
    summary: () => 'signed in with the password',
  }),
  verify: (code: string): JsonCall<z.infer<typeof tokenPairSchema>> => ({
    method: 'POST',
    path: 'token/verify/',
    body: { token: code },
    auth: true,
    schema: tokenPairSchema,
    token: (answer) => ({ at: '.access', access: answer.access, verified: true }),
    summary: (answer) => {
      const claims = jwtDecode<AccessClaims>(answer.access);
      return `2FA verified, ${claims.is_superuser ? 'a superuser' : `affiliate ${claims.affiliate_id ?? 'none'}`}`;
    },
  }),
  refresh: (refresh: string): JsonCall<z.infer<typeof refreshResponseSchema>> => ({
    method: 'POST',
    path: 'token/refresh/',
    body: { refresh },
    auth: false,
    schema: refreshResponseSchema,
    token: (answer) => ({ at: '.access', access: answer.access, verified: true }),
    summary: (answer) => (answer.refresh ? 'a new access token, the refresh token rotated' : 'a new access token'),
  }),
  affiliates: (): JsonCall<z.infer<typeof affiliateListSchema>> => ({
    method: 'GET',
    path: 'affiliates/',
    auth: true,
    schema: affiliateListSchema,
    summary: (list) => plural(list.length, 'affiliate'),
  }),
  paymentEvents: (range: RangeQuery): JsonCall<z.infer<typeof paymentEventListSchema>> => ({
    method: 'GET',
    path: 'payment_events/',
    query: range,
    auth: true,
    schema: paymentEventListSchema,
    summary: (list) => plural(list.length, 'payment event'),
  }),
  connectionFees: (range: RangeQuery): JsonCall<z.infer<typeof connectionFeeListSchema>> => ({
    method: 'GET',
    path: 'connection_fees/',
    query: range,
    auth: true,
    schema: connectionFeeListSchema,
    summary: (list) => plural(list.length, 'connection fee'),
  }),
  reports: (): JsonCall<z.infer<typeof affiliateReportListSchema>> => ({
    method: 'GET',
    path: 'reports/affiliate/',
    auth: true,
    schema: affiliateReportListSchema,
    summary: (list) => (list.length === 0 ? '0 reports, so no download to check' : plural(list.length, 'report')),
  }),
};

/** The session the walk's calls go out with. */
interface Session {
  access: string | null;
  refresh: string | null;
  /** The affiliate a superuser's call views as, or null. */
  impersonated: string | null;
}

/** The base with its trailing slash, or a CannotRun naming what is wrong with it. */
export function apiBase(base: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new CannotRun(`--base must be the API's full URL, such as http://host:8080/api/v2/; got "${base}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CannotRun(`--base must be an http or https URL; got "${base}"`);
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/** Why a fetch got no answer, in a few words: 'connect ECONNREFUSED 127.0.0.1:8080', 'no answer within 60 s'. */
function faultOf(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no answer within ${CALL_TIMEOUT_MS / 1000} s`;
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** A call's text on a line: 'GET payment_events/?start=...&end=...', the query as the API reads it. */
function labelOf(method: string, path: string, query: Record<string, string> = {}): string {
  const search = Object.entries(query)
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  return `${method} ${search ? `${path}?${search}` : path}`;
}

/** What is wrong with the claims of an access token at `at`, as the portal decodes it (src/domain/auth-token.ts); null if nothing. */
function claimProblems(at: string, access: string, verified: boolean): string | null {
  let claims: unknown;
  try {
    claims = jwtDecode(access);
  } catch {
    return `${at}: not a JWT the portal can decode`;
  }
  const parsed = accessClaimsSchema.safeParse(claims);
  if (!parsed.success) return describeIssues(parsed.error.issues, claims, `${at} claims`);
  if (verified && parsed.data.is_2fa_verified !== true) {
    return `${at} claims.is_2fa_verified: expected true, got ${described(parsed.data.is_2fa_verified)}`;
  }
  return null;
}

/** The text of a sign-in step the API refused: the API's own words where it gives them. */
function refusal(label: string, error: ApiError, what: string): string {
  const said = error.serverText();
  if (error.status === 429) return `${label} was throttled: ${said ?? error.message}`;
  if (error.status !== null && error.status >= 400 && error.status < 500 && error.status !== 404 && error.status !== 405) {
    return `${label}: the API refused ${what} (${error.status}${said ? `: ${said}` : ''})`;
  }
  return `${label} answered ${error.message}${said ? ` (${said})` : ''}; is the base the v2 API's?`;
}

/** The walk's calls and their tally: each call made writes its line. */
function createRun(options: CheckOptions, base: string) {
  const { write } = options;
  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let fault = '';
  // The client's network error says no more than that: the fault itself is kept for the reason.
  const fetchWithTimeout: typeof fetch = async (input, init) => {
    try {
      return await baseFetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(CALL_TIMEOUT_MS) });
    } catch (error) {
      fault = faultOf(error);
      throw error;
    }
  };
  const session: Session = { access: null, refresh: null, impersonated: null };
  const client: ApiClient = createApiClient({
    baseUrl: base,
    fetch: fetchWithTimeout,
    getAccessToken: () => session.access,
    getImpersonatedAffiliate: () => session.impersonated,
  });
  const tally = { calls: 0, mismatches: 0 };

  function line(label: string, problem: string | null, summary: string) {
    tally.calls += 1;
    if (problem === null) {
      write(`OK   ${label} (${summary})`);
    } else {
      tally.mismatches += 1;
      write(`FAIL ${label}: ${problem}`);
    }
  }

  /** A network fault, or an answer that breaks off, ends the walk; an answer's failure is the caller's. */
  function noAnswer(error: unknown, label: string): never {
    if (error instanceof ApiError && error.kind === 'network') throw new CannotRun(`no answer to ${label} from ${base}: ${fault}`);
    if (!(error instanceof ApiError)) throw new CannotRun(`the answer to ${label} broke off: ${faultOf(error)}`);
    throw error;
  }

  /**
   * Makes a JSON call and checks its answer; the parsed answer, or null when it failed. With
   * `refused` (what a sign-in step asks the API to accept), a refusal ends the walk (CannotRun).
   */
  async function json<T>(call: JsonCall<T>, refused: string | null = null): Promise<T | null> {
    const label = labelOf(call.method, call.path, call.query);
    let body: string;
    try {
      const response = await client.answer(call.path, { method: call.method, body: call.body, query: call.query, auth: call.auth });
      body = await response.text();
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== 'http') noAnswer(error, label);
      if (refused !== null) throw new CannotRun(refusal(label, error, refused));
      line(label, error.message, '');
      return null;
    }
    let data: unknown;
    let problem: string | null = null;
    try {
      data = JSON.parse(body);
    } catch {
      problem = 'the body is not JSON';
    }
    const parsed = problem === null ? call.schema.safeParse(data) : null;
    if (parsed && !parsed.success) problem = describeIssues(parsed.error.issues, data);
    if (parsed?.success && call.token) {
      const { at, access, verified } = call.token(parsed.data);
      problem = claimProblems(at, access, verified);
    }
    line(label, problem, problem === null && parsed?.success ? call.summary(parsed.data) : '');
    return problem === null && parsed?.success ? parsed.data : null;
  }

  /** POST token/send-email/: its answer is not read, as the portal does not read it. */
  async function sendEmail(): Promise<void> {
    const label = 'POST token/send-email/';
    try {
      await client.answer('token/send-email/', { method: 'POST' });
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== 'http') noAnswer(error, label);
      throw new CannotRun(refusal(label, error, 'to send a code'));
    }
    line(label, null, 'a code was sent');
  }

  /** The report's file as the portal downloads it: a zip (an .xlsx is one), of a file's content type. */
  async function download(report: AffiliateReport): Promise<void> {
    const label = `GET reports/affiliate/${report.id}/download/`;
    let file: Blob;
    try {
      file = await downloadReport(client, report.id);
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== 'http') noAnswer(error, label);
      return line(label, error.message, '');
    }
    const start = new Uint8Array(await file.slice(0, 2).arrayBuffer());
    const type = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
    const problem =
      start[0] !== 0x50 || start[1] !== 0x4b
        ? `not an .xlsx file: it does not start with the bytes "PK" of a zip (${file.size} bytes${type ? `, ${type}` : ''})`
        : type && !FILE_TYPES.includes(type)
          ? `Content-Type ${type}, expected ${FILE_TYPES[0]}`
          : null;
    line(label, problem, `${reportFileName(report)}, ${plural(file.size, 'byte')}`);
  }

  /** GET affiliates/invites/{id}/ of an invite that does not exist: the portal reads 404 as invalid or expired. */
  async function unknownInvite(): Promise<void> {
    const id = randomUUID();
    const label = `GET affiliates/invites/${id}/`;
    try {
      await createInviteApi(client).getInvite(id);
      line(label, 'answered an invite for an id that does not exist; expected 404', '');
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind === 'network') noAnswer(error, label);
      const expected = error.kind === 'http' && error.status === 404;
      line(
        label,
        expected ? null : `answered ${error.status ?? '?'}, expected 404 (${error.message})`,
        '404: an invalid or expired invite',
      );
    }
  }

  /** GET affiliates/ as a superuser viewing as `affiliateId`. */
  async function impersonated(affiliateId: string): Promise<void> {
    session.impersonated = affiliateId;
    try {
      const call = calls.affiliates();
      await json({
        ...call,
        query: { impersonate_affiliate: affiliateId },
        summary: (list) => `${call.summary(list)} seen as ${affiliateId}`,
      });
    } finally {
      session.impersonated = null;
    }
  }

  return { session, tally, json, sendEmail, download, unknownInvite, impersonated };
}

type Run = ReturnType<typeof createRun>;

/** Password, then the second factor the token's claims name; the verified session's claims. */
async function signIn(run: Run, user: string, credentials: Credentials): Promise<AccessClaims> {
  const login = await run.json(calls.login(user, await credentials.password()), `the password of ${user}`);
  // The walk stops at a sign-in answer the portal cannot read (its claims checked with it).
  const pair = login && ('tokens' in login ? login.tokens : login);
  if (!pair) throw new Stopped();
  Object.assign(run.session, { access: pair.access, refresh: pair.refresh });
  const claims = jwtDecode<AccessClaims>(pair.access);
  const method = claims['2fa_method'];
  if (!method) {
    throw new CannotRun(`${user} has not set up two-factor authentication yet: sign in to the portal once to set it up, then check again`);
  }
  if (claims.is_2fa_verified === true) return claims;
  if (method === 'email') await run.sendEmail();
  const code = method === 'email' ? await credentials.emailCode() : await credentials.totpCode();
  const verified = await run.json(calls.verify(code), `the ${method === 'email' ? 'e-mailed' : 'authenticator'} code`);
  if (!verified) throw new Stopped();
  Object.assign(run.session, verified);
  return jwtDecode<AccessClaims>(verified.access);
}

/** The newest report: the latest report date, the higher id of two. */
const newest = (reports: AffiliateReport[]) =>
  reports.reduce<AffiliateReport | null>(
    (best, report) =>
      !best || report.report_date > best.report_date || (report.report_date === best.report_date && report.id > best.id) ? report : best,
    null,
  );

async function walk(run: Run, options: CheckOptions): Promise<void> {
  const claims = await signIn(run, options.user, options.credentials);

  const refreshed = await run.json(calls.refresh(run.session.refresh ?? ''));
  if (refreshed) Object.assign(run.session, { access: refreshed.access, refresh: refreshed.refresh ?? run.session.refresh });

  const affiliates = await run.json(calls.affiliates());
  // The dashboard's default view, Last 30 days, in this machine's time zone (src/domain/dates.ts).
  const now = DateTime.fromMillis((options.now ?? Date.now)());
  const { start, end } = toQuery(dateRange('last30', { now }));
  await run.json(calls.paymentEvents({ start, end }));
  await run.json(calls.connectionFees({ start, end }));

  const reports = await run.json(calls.reports());
  const report = reports && newest(reports);
  if (report) await run.download(report);

  await run.unknownInvite();

  if (claims.is_superuser === true) {
    // With no affiliate in the list there is none to view as: its line said 0 affiliates.
    const viewedAs = affiliates?.[0]?.affiliate_ID;
    if (viewedAs !== undefined) await run.impersonated(viewedAs);
  }
}

/** Walks the API at `options.base` as `options.user`, writing one line a call and the tally. */
export async function checkApi(options: CheckOptions): Promise<CheckResult> {
  try {
    const run = createRun(options, apiBase(options.base));
    try {
      await walk(run, options);
    } catch (error) {
      if (!(error instanceof Stopped)) throw error;
    }
    const { calls: made, mismatches } = run.tally;
    options.write(`${plural(made, 'call')}, ${plural(mismatches, 'mismatch', 'mismatches')}`);
    return { exitCode: mismatches === 0 ? 0 : 1 };
  } catch (error) {
    if (error instanceof CannotRun) return { exitCode: 2, reason: error.message };
    throw error;
  }
}
