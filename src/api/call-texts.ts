// What the sign-in and two-factor calls share: each call's failure becomes its own error text,
// and a token pair the portal cannot read (or that should be verified and is not) is no sign-in.
import type * as z from 'zod/mini';
import { readClaims } from '../domain/auth-token.ts';
import { ApiError, messages, type ApiClient, type RequestOptions } from './client.ts';

/** POST through the client. */
export const postWith =
  (client: ApiClient) =>
  <S extends z.ZodMiniType>(path: string, options: Omit<RequestOptions<S>, 'method'>) =>
    client.request(path, { ...options, method: 'POST' });

interface FailureTexts {
  /** The server said no (a 4xx answer). */
  rejected: (error: ApiError) => string;
  /** Anything else: 5xx, network, an unexpected response. */
  failed: (error: unknown) => string;
  /** Throttled (429): by default when to try again, in the server's words. */
  throttled?: (error: ApiError) => string;
}

/** Runs a call and rethrows its failure as an ApiError carrying the call's own text. */
export async function withTexts<T>(call: Promise<T>, texts: FailureTexts): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const rejected = error.kind === 'http' && error.status !== null && error.status < 500;
    const text =
      error.status === 429
        ? (texts.throttled?.(error) ?? error.serverText() ?? texts.rejected(error))
        : rejected
          ? texts.rejected(error)
          : texts.failed(error);
    throw new ApiError(text, error.kind, error.status, error.body, error.retryAfter);
  }
}

export const fixed = (text: string) => () => text;
/** The status of a failed HTTP answer; null for a network fault or an answer of the wrong shape. */
export const failedStatus = (error: unknown) => (error instanceof ApiError && error.kind === 'http' ? error.status : null);

/**
 * The login gate decides from the stored access token's claims: an answer whose token it cannot
 * read, or whose token a verification should have verified and has not, is not a sign-in.
 */
export function readableToken<T extends { access: string }>(path: string, verified: boolean) {
  return (pair: T): T => {
    const claims = readClaims(pair.access);
    if (!claims) throw new ApiError(messages.invalidResponse(path, 'access: not a token the portal can read'), 'schema', 200);
    if (verified && claims.is_2fa_verified !== true)
      throw new ApiError(messages.invalidResponse(path, 'access: not 2FA-verified'), 'schema', 200);
    return pair;
  };
}
