// What the portal sends the v2 API: request bodies, query strings and path parameters. The calls
// name these shapes by their types only, so the schemas stay out of the bundles; they are for
// describing the API (docs/openapi.json, scripts/openapi-document.ts).
import * as z from 'zod/mini';
import { affiliateReportSchema, isoDateTime } from './schemas.ts';

/** POST token/: the login as typed (username or e-mail address) and the password. */
export const loginRequestSchema = z.object({ username: z.string(), password: z.string() });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** POST token/refresh/ and token/blacklist/: the session's refresh token. */
export const refreshRequestSchema = z.object({ refresh: z.string() });
export type RefreshRequest = z.infer<typeof refreshRequestSchema>;

/** POST token/verify/: the six-character code of the authenticator app or of the e-mail. */
export const codeRequestSchema = z.object({ token: z.string() });
export type CodeRequest = z.infer<typeof codeRequestSchema>;

/** POST 2fa/totp/confirm/ and 2fa/email/confirm_setup/: the code and the device its setup answered. */
export const setupCodeRequestSchema = z.object({ token: z.string(), device_id: z.string() });
export type SetupCodeRequest = z.infer<typeof setupCodeRequestSchema>;

/** POST affiliates/invites/register/: the confirm password is checked in the browser only. */
export const registrationRequestSchema = z.object({ email: z.string(), password: z.string(), invite_id: z.string() });
export type RegistrationRequest = z.infer<typeof registrationRequestSchema>;

/** GET payment_events/ and connection_fees/: local day starts with their offsets; `end` left out where the range has none. */
export const rangeParamsSchema = z.object({ start: isoDateTime, end: z.optional(isoDateTime) });
export type RangeParams = z.infer<typeof rangeParamsSchema>;

/** Every authenticated call while a superuser views the portal as an affiliate. */
export const impersonationParamsSchema = z.object({ impersonate_affiliate: z.optional(z.string()) });
export type ImpersonationParams = z.infer<typeof impersonationParamsSchema>;

/** GET reports/affiliate/{id}/download/: the id of a report of the list. */
export const reportDownloadPathSchema = z.object({ id: affiliateReportSchema.shape.id });

/** GET affiliates/invites/{inviteId}/: the id from the invite link. */
export const invitePathSchema = z.object({ inviteId: z.string() });
