import { describe, expect, it } from 'vitest';
import { secretFromQrUrl } from './authenticator-setup.ts';

describe('secretFromQrUrl: the manual-entry key is the secret query parameter of qr_url', () => {
  it('reads the secret among the other parameters', () => {
    expect(secretFromQrUrl('otpauth://totp/Portal:parent?secret=JBSWY3DPEHPK3PXP&issuer=Portal')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('is null when qr_url has no query or no secret', () => {
    expect(secretFromQrUrl('otpauth://totp/Portal:parent')).toBeNull();
    expect(secretFromQrUrl('otpauth://totp/Portal:parent?issuer=Portal')).toBeNull();
  });
});
