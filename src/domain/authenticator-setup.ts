// What an authenticator setup shows besides its QR code. Apart from auth-token.ts so that only
// the setup screen's code, not the sign-in page's, carries it.

/** The manual-entry key of an authenticator setup: the secret query parameter of qr_url. */
export function secretFromQrUrl(qrUrl: string): string | null {
  const query = qrUrl.split('?')[1];
  return query ? new URLSearchParams(query).get('secret') : null;
}
