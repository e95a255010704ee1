// The invite calls (no authentication): look an invite up, and register through it.
import { ApiError, messages, type ApiClient } from './client.ts';
import type { RegistrationRequest } from './request-schemas.ts';
import { inviteSchema, registrationResponseSchema, type Invite, type RegistrationResponse } from './schemas.ts';

/** A lookup answered 404. */
export const INVITE_NOT_FOUND = 'The invite link appears to be invalid or expired.';

export function createInviteApi(client: ApiClient) {
  return {
    /** GET affiliates/invites/{id}/: 404 means invalid or expired. */
    async getInvite(inviteId: string): Promise<Invite> {
      try {
        return await client.request(`affiliates/invites/${encodeURIComponent(inviteId)}/`, { auth: false, schema: inviteSchema });
      } catch (error) {
        if (!(error instanceof ApiError) || error.kind !== 'http' || error.status === null) throw error;
        const text = error.status === 404 ? INVITE_NOT_FOUND : (error.fieldErrors().error ?? messages.httpStatus(error.status));
        throw new ApiError(text, error.kind, error.status, error.body);
      }
    },

    /** POST affiliates/invites/register/: a 400's field errors stay on the ApiError (fieldErrors()). */
    register(registration: RegistrationRequest): Promise<RegistrationResponse> {
      return client.request('affiliates/invites/register/', {
        method: 'POST',
        auth: false,
        body: registration,
        schema: registrationResponseSchema,
      });
    },
  };
}

export type InviteApi = ReturnType<typeof createInviteApi>;
