// The QR code library of an authenticator setup. qrcode.react is loaded only when a setup needs
// it, so the sign-in bundle does not carry it: the session runs loadQrCode (the auth machine's
// totpSetup.ready.qrCode region tracks it), and QrCode (qr-code-image.tsx) draws once it has
// resolved. Kept apart from QrCode, which loads with the setup screen.
type QrModule = typeof import('qrcode.react');

let qrModule: QrModule | null = null;

export function loadQrCode(): Promise<void> {
  if (qrModule) return Promise.resolve();
  return import('qrcode.react').then((module) => {
    qrModule = module;
  });
}

/** The library, once loadQrCode has resolved. */
export function loadedQrCode(): QrModule | null {
  return qrModule;
}
