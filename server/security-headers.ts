// The security headers of every answer the server gives (the portal's page, its files, the API):
// a content security policy that lets the page load only its own code and styles, and the usual
// companions. API answers carry travellers' names and tokens, so no cache may keep them.
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/** Where Google Tag Manager's script comes from (src/app/data-layer.ts loads it). */
export const TAG_MANAGER_ORIGIN = 'https://www.googletagmanager.com';

export interface SecurityHeaderOptions {
  /** Sends Strict-Transport-Security: only for a server reached over HTTPS. */
  hsts?: boolean;
  /** The portal was built with a tag manager: its script origin is allowed. */
  tagManager?: boolean;
}

export function securityHeaders({ hsts = false, tagManager = false }: SecurityHeaderOptions = {}): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      // Scripts, styles, images and API calls from this origin only; no inline script or style.
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...(tagManager ? [TAG_MANAGER_ORIGIN] : [])],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      // Not covered by default-src: an injected form must not post anywhere else.
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: 'strict-origin-when-cross-origin',
    // The same rule as frame-ancestors, for browsers that know only this header.
    xFrameOptions: 'DENY',
    // Once sent, browsers refuse plain HTTP to this host for a year: opt-in, behind HTTPS only.
    strictTransportSecurity: hsts ? 'max-age=31536000; includeSubDomains' : false,
  });
}

/** Cache-Control: no-store on the answer, whatever produced it (errors included). */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set('Cache-Control', 'no-store');
};
