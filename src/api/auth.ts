// The sign-in and two-factor calls, each turning failures into its own error text (client.ts).
import type * as z from 'zod/mini';
import { readClaims } from '../domain/auth-token.ts';
import { ApiError, messages, type ApiClient, type RequestOptions } from './client.ts';
import {
  emailSetupSchema,
  loginResponseSchema,
  refreshResponseSchema,
  tokenPairSchema,
  totpSetupSchema,
  type EmailSetup,
  type RefreshResponse,
  type TokenPair,
  type TotpSetup,
} from './sign-in-schemas.ts';

interface FailureTexts {
  /** The server said no (a 4xx answer). */
  rejected: (error: ApiError) => string;
  /** Anything else: 5xx, network, an unexpected response. */
  failed: (error: unknown) => string;
}

/** Runs a call and rethrows its failure as an ApiError carrying the call's own text. */
async function withTexts<T>(call: Promise<T>, texts: FailureTexts): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const rejected = error.kind === 'http' && error.status !== null && error.status < 500;
    // A throttled attempt says when to try again, in the server's words.
    const text = error.status === 429 ? (error.serverText() ?? texts.rejected(error)) : rejected ? texts.rejected(error) : texts.failed(error);
    throw new ApiError(text, error.kind, error.status, error.body);
  }
}

const fixed = (text: string) => () => text;
const httpStatus = (error: ApiError) => messages.httpStatus(error.status ?? 0);
/** The status of a failed HTTP answer; null for a network fault or an answer of the wrong shape. */
const failedStatus = (error: unknown) => (error instanceof ApiError && error.kind === 'http' ? error.status : null);
/** 'HTTP Error: {status}' for a failed answer, else the call's default text. */
const httpStatusOr = (text: string) => (error: unknown) => {
  const status = failedStatus(error);
  return status === null ? text : messages.httpStatus(status);
};

/**
 * The login gate decides from the stored access token's claims: an answer whose token it cannot
 * read, or whose token a verification should have verified and has not, is not a sign-in.
 */
function readableToken<T extends { access: string }>(path: string, verified: boolean) {
  return (pair: T): T => {
    const claims = readClaims(pair.access);
    if (!claims) throw new ApiError(messages.invalidResponse(path, 'access: not a token the portal can read'), 'schema', 200);
    if (verified && claims.is_2fa_verified !== true) throw new ApiError(messages.invalidResponse(path, 'access: not 2FA-verified'), 'schema', 200);
    return pair;
  };
}

export function createAuthApi(client: ApiClient) {
  const post = <S extends z.ZodMiniType>(path: string, options: Omit<RequestOptions<S>, 'method'>) =>
    client.request(path, { ...options, method: 'POST' });

  return {
    /** POST token/: a partial (not yet 2FA-verified) token pair. */
    login(username: string, password: string): Promise<TokenPair & { username: string }> {
      const pair = post('token/', { auth: false, body: { username, password }, schema: loginResponseSchema }).then((answer) =>
        readableToken<TokenPair & { username: string }>('token/', false)(
          'tokens' in answer ? { ...answer.tokens, username: answer.user.username } : { ...answer, username },
        ),
      );
      return withTexts(pair, { rejected: fixed(messages.login.rejected), failed: fixed(messages.login.failed) });
    },

    /** POST token/refresh/: 401 ends the session; other failures say 'Token refresh failed: {status}'. */
    refresh(refresh: string): Promise<RefreshResponse> {
      return withTexts(post('token/refresh/', { auth: false, body: { refresh }, schema: refreshResponseSchema }), {
        rejected: (error) => (error.status === 401 ? error.message : messages.refresh(error.status ?? 0)),
        failed: (error) => {
          const status = failedStatus(error);
          if (status !== null) return messages.refresh(status);
          return error instanceof ApiError && error.kind === 'schema' ? error.message : messages.network;
        },
      });
    },

    setupTotp(): Promise<TotpSetup> {
      return withTexts(post('2fa/totp/setup/', { schema: totpSetupSchema }), {
        rejected: httpStatus,
        failed: httpStatusOr(messages.totpSetup),
      });
    },

    confirmTotp(token: string, deviceId: string): Promise<TokenPair> {
      const path = '2fa/totp/confirm/';
      return withTexts(post(path, { body: { token, device_id: deviceId }, schema: tokenPairSchema }).then(readableToken(path, true)), {
        rejected: httpStatus,
        failed: httpStatusOr(messages.totpConfirm),
      });
    },

    setupEmail(): Promise<EmailSetup> {
      return withTexts(post('2fa/email/setup/', { schema: emailSetupSchema }), {
        rejected: httpStatus,
        failed: httpStatusOr(messages.emailSetup),
      });
    },

    confirmEmailSetup(token: string, deviceId: string): Promise<TokenPair> {
      const path = '2fa/email/confirm_setup/';
      return withTexts(post(path, { body: { token, device_id: deviceId }, schema: tokenPairSchema }).then(readableToken(path, true)), {
        rejected: httpStatus,
        failed: httpStatusOr(messages.emailConfirm),
      });
    },

    /** POST token/send-email/: the sign-in code e-mail (also Resend). */
    async sendLoginEmail(): Promise<void> {
      await withTexts(post('token/send-email/', {}), {
        rejected: (error) => messages.sendEmail.status(error.status ?? 0),
        failed: (error) => {
          const status = failedStatus(error);
          return status === null ? messages.sendEmail.failed : messages.sendEmail.status(status);
        },
      });
    },

    /** POST token/verify/ with a TOTP code: a verified token pair. */
    verifyTotp(code: string): Promise<TokenPair> {
      return withTexts(post('token/verify/', { body: { token: code }, schema: tokenPairSchema }).then(readableToken('token/verify/', true)), {
        rejected: fixed(messages.totpCode.rejected),
        failed: fixed(messages.totpCode.failed),
      });
    },

    /** POST token/verify/ with an e-mailed code: a verified token pair. */
    verifyEmailCode(code: string): Promise<TokenPair> {
      return withTexts(post('token/verify/', { body: { token: code }, schema: tokenPairSchema }).then(readableToken('token/verify/', true)), {
        rejected: fixed(messages.emailCode.rejected),
        failed: fixed(messages.emailCode.failed),
      });
    },
  };
}

export type AuthApi = ReturnType<typeof createAuthApi>;
