// The sign-in and two-factor calls, each turning failures into its own error text (call-texts.ts);
// the two-factor calls themselves are in two-factor.ts.
import { failedStatus, fixed, postWith, readableToken, withTexts } from './call-texts.ts';
import { ApiError, messages, type ApiClient } from './client.ts';
import { loginResponseSchema, refreshResponseSchema, type RefreshResponse, type TokenPair } from './sign-in-schemas.ts';
import type { TwoFactorApi } from './two-factor.ts';

export function createAuthApi(client: ApiClient) {
  const post = postWith(client);
  let loading: Promise<TwoFactorApi> | null = null;
  const twoFactor = () => (loading ??= import('./two-factor.ts').then((module) => module.createTwoFactorApi(client)));

  return {
    /** POST token/: a partial (not yet 2FA-verified) token pair. */
    login(username: string, password: string): Promise<TokenPair & { username: string }> {
      // A code is asked for next: its calls' code loads while the login call is under way.
      void twoFactor().catch(() => {});
      const pair = post('token/', { auth: false, body: { username, password }, schema: loginResponseSchema }).then((answer) =>
        readableToken<TokenPair & { username: string }>(
          'token/',
          false,
        )('tokens' in answer ? { ...answer.tokens, username: answer.user.username } : { ...answer, username }),
      );
      return withTexts(pair, { rejected: fixed(messages.login.rejected), failed: fixed(messages.login.failed) });
    },

    /** POST token/refresh/: 401 ends the session; other failures, a 429 too, say 'Token refresh failed: {status}'. */
    refresh(refresh: string): Promise<RefreshResponse> {
      const rejected = (error: ApiError) => (error.status === 401 ? error.message : messages.refresh(error.status ?? 0));
      return withTexts(post('token/refresh/', { auth: false, body: { refresh }, schema: refreshResponseSchema }), {
        rejected,
        throttled: rejected,
        failed: (error) => {
          const status = failedStatus(error);
          if (status !== null) return messages.refresh(status);
          return error instanceof ApiError && error.kind === 'schema' ? error.message : messages.network;
        },
      });
    },

    /**
     * POST token/blacklist/: the server revokes the refresh token's chain, so that a sign-out ends
     * the session there too. Kept alive through the page's unload.
     */
    blacklist(refresh: string): Promise<void> {
      return client.request('token/blacklist/', { method: 'POST', auth: false, body: { refresh }, keepalive: true }).then(() => undefined);
    },

    // The second factor's calls load on first use: /login does not need their code.
    setupTotp: () => twoFactor().then((api) => api.setupTotp()),
    confirmTotp: (token: string, deviceId: string) => twoFactor().then((api) => api.confirmTotp(token, deviceId)),
    setupEmail: () => twoFactor().then((api) => api.setupEmail()),
    confirmEmailSetup: (token: string, deviceId: string) => twoFactor().then((api) => api.confirmEmailSetup(token, deviceId)),
    sendLoginEmail: () => twoFactor().then((api) => api.sendLoginEmail()),
    verifyTotp: (code: string) => twoFactor().then((api) => api.verifyTotp(code)),
    verifyEmailCode: (code: string) => twoFactor().then((api) => api.verifyEmailCode(code)),
  };
}

export type AuthApi = ReturnType<typeof createAuthApi>;
