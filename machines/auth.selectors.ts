// What the session, the header and the first sign-in screens read of the sign-in chart
// (machines/auth.ts), in the /login entry; what later screens read: auth.screen-selectors.ts.
import type { AccessClaims } from '../src/domain/access-claims.ts';
import { claimsOf, type AuthSnapshot } from './auth.ts';

/** A call in flight: signing in, a 2FA call, or a session waiting for its refresh. */
export const selectIsPending = (snapshot: AuthSnapshot): boolean => snapshot.hasTag('pending');

/** Signed in with a usable session: the app, the header's Logout. */
export const selectIsSignedIn = (snapshot: AuthSnapshot): boolean => snapshot.matches({ authenticated: 'active' });

/** The claims of the stored access token, or null when there is none. */
export const selectClaims = (snapshot: AuthSnapshot): AccessClaims | null => claimsOf(snapshot.context.token);

export const selectIsSuperuser = (snapshot: AuthSnapshot): boolean => selectClaims(snapshot)?.is_superuser === true;

/** Viewing as an affiliate: the signed-in state's child, none while signed out. */
export const selectImpersonation = (snapshot: AuthSnapshot) => snapshot.children.impersonation ?? null;
