// The QR code of an authenticator setup. qrcode.react is loaded only when a setup needs it, so
// the sign-in bundle does not carry it: the session runs loadQrCode (the auth machine's
// totpSetup.ready.qrCode region tracks it), and QrCode draws once it has resolved.
type QrModule = typeof import('qrcode.react');

let qrModule: QrModule | null = null;

export function loadQrCode(): Promise<void> {
  if (qrModule) return Promise.resolve();
  return import('qrcode.react').then((module) => {
    qrModule = module;
  });
}

export const QR_CODE_LABEL = 'QR code for your authenticator app';

export function QrCode({ value }: { value: string }) {
  if (!qrModule) return null; // not loaded: the machine shows 'Generating QR code...' meanwhile
  const { QRCodeSVG } = qrModule;
  return <QRCodeSVG value={value} size={192} fgColor="#000000" bgColor="#FFFFFF" role="img" aria-label={QR_CODE_LABEL} />;
}
