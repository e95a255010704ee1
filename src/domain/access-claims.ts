// The claims of an access token that the portal reads: who the user is, how far two-factor
// authentication has gone, and when the token expires (see docs/product-rules.md, Tokens and
// sessions). A schema, not an API response: the token is decoded here, in the browser.
import * as z from 'zod/mini';

/** An identifier the API may send as a number or a string; the SPA always handles strings. */
export const idString = z.pipe(
  z.union([z.string(), z.number()]),
  z.transform((value: string | number) => String(value)),
);

export const twoFactorMethodSchema = z.enum(['totp', 'email']);
export type TwoFactorMethod = z.infer<typeof twoFactorMethodSchema>;

/** The access token claims the portal reads; the server may add others. */
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
