// The v2 API's response shapes (spec sections 3 and 7): the single source of truth for the SPA,
// which parses every response with them, and for the reference server's contract tests.
// zod/mini keeps the sign-in bundle small; the schemas read the same as full zod's.
import * as z from 'zod/mini';

/** A decimal amount as the API sends it: "12", "12.5", "-3.000001". */
export const decimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/, 'Expected a decimal string'));

/** An ISO 8601 date-time with an offset or Z, as Django REST Framework renders it. */
export const isoDateTime = z.iso.datetime({ offset: true });

/** An ISO 8601 calendar date, YYYY-MM-DD. */
export const isoDate = z.iso.date();

/** An identifier the API may send as a number or a string; the SPA always handles strings. */
const idString = z.pipe(
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

// --- Affiliates ---------------------------------------------------------------------------

export const affiliateSchema = z.object({
  affiliate_ID: z.string(),
  name: z.string(),
  parent: z.nullable(idString),
});
export type AffiliateResponse = z.infer<typeof affiliateSchema>;
export const affiliateListSchema = z.array(affiliateSchema);

// --- Payment events and connection fees ---------------------------------------------------

export const travelerSchema = z.object({
  first_name: z.nullish(z.string()),
  last_name: z.nullish(z.string()),
});

export const policySchema = z.object({
  policy_number: z.nullish(z.string()),
  travelers: z.nullish(z.array(travelerSchema)),
});

export const paymentEventSchema = z.object({
  id: z.number(),
  created: isoDateTime,
  amount: z.nullish(decimalString),
  order: z.object({
    affiliate: z.nullish(z.object({ affiliate_id: z.nullish(idString) })),
    affiliate_commission_pc: z.nullish(decimalString),
    plan: z.nullish(z.object({ product: z.nullish(z.string()) })),
    policy: z.nullish(z.array(policySchema)),
  }),
});
export type PaymentEvent = z.infer<typeof paymentEventSchema>;
export const paymentEventListSchema = z.array(paymentEventSchema);

export const connectionFeeSchema = z.object({
  id: z.number(),
  created: isoDateTime,
  amount: z.nullable(decimalString),
  affiliate: z.nullable(z.object({ affiliate_id: idString })),
  connection_fee_pc: z.nullable(decimalString),
  connection_fee_amount: z.nullable(decimalString),
});
export type ConnectionFee = z.infer<typeof connectionFeeSchema>;
export const connectionFeeListSchema = z.array(connectionFeeSchema);

// --- Reports ------------------------------------------------------------------------------

export const affiliateReportSchema = z.object({
  id: z.number(),
  report_date: isoDate,
  start_date: isoDate,
  end_date: isoDate,
  affiliate_id: idString,
  sales: z.number(),
  premium_collected: decimalString,
  commission: decimalString,
  connection_fees: decimalString,
});
export type AffiliateReport = z.infer<typeof affiliateReportSchema>;
export const affiliateReportListSchema = z.array(affiliateReportSchema);

// --- Invites and registration -------------------------------------------------------------

export const inviteSchema = z.object({ affiliate: z.object({ name: z.string() }) });
export type Invite = z.infer<typeof inviteSchema>;

export const registrationResponseSchema = z.object({
  user: z.object({ username: z.string() }),
  tokens: tokenPairSchema,
});
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

/** Django REST Framework's error bodies: `{"detail": ...}` or field errors with non_field_errors. */
export const errorBodySchema = z.record(
  z.string(),
  z.union([z.string(), z.array(z.string())]),
);
export type ErrorBody = z.infer<typeof errorBodySchema>;
