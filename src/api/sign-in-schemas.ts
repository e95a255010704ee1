// The v2 API's response shapes that signing in reads (spec sections 3 and 7): tokens, their
// claims, the two-factor setup answers and error bodies. Part of src/api/schemas.ts, which
// re-exports them; kept apart so that the sign-in screens' code carries no other schema.
import * as z from 'zod/mini';

/** An identifier the API may send as a number or a string; the SPA always handles strings. */
export const idString = z.pipe(
  z.union([z.string(), z.number()]),
  z.transform((value: string | number) => String(value)),
);

// --- Tokens and two-factor authentication -------------------------------------------------

export const tokenPairSchema = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof tokenPairSchema>;

/** POST token/: spec section 7 answers access and refresh; section 3 also knows user.username and tokens. */
export const loginResponseSchema = z.union([
  tokenPairSchema,
  z.object({ user: z.object({ username: z.string() }), tokens: tokenPairSchema }),
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** POST token/refresh/: a new access token, and a new refresh token only when rotated. */
export const refreshResponseSchema = z.object({ access: z.string(), refresh: z.optional(z.string()) });
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

export const totpSetupSchema = z.object({ device_id: idString, qr_url: z.string() });
export type TotpSetup = z.infer<typeof totpSetupSchema>;

export const emailSetupSchema = z.object({ device_id: idString, email: z.string() });
export type EmailSetup = z.infer<typeof emailSetupSchema>;

export const twoFactorMethodSchema = z.enum(['totp', 'email']);
export type TwoFactorMethod = z.infer<typeof twoFactorMethodSchema>;

/** The access token claims the portal reads (spec section 3). */
export const accessClaimsSchema = z.object({
  exp: z.number(),
  user_id: idString,
  username: z.string(),
  sub: z.optional(z.string()),
  '2fa_method': z.nullish(twoFactorMethodSchema),
  is_2fa_verified: z.optional(z.boolean()),
  affiliate_id: z.nullish(idString),
  is_superuser: z.optional(z.boolean()),
});
export type AccessClaims = z.infer<typeof accessClaimsSchema>;

/** Django REST Framework's error bodies: `{"detail": ...}` or field errors with non_field_errors. */
export const errorBodySchema = z.catchall(z.object({}), z.union([z.string(), z.array(z.string())]));
export type ErrorBody = z.infer<typeof errorBodySchema>;
