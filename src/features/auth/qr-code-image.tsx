// The QR code of an authenticator setup, drawn with the library loadQrCode (qr-code.tsx) loaded.
import { loadedQrCode } from './qr-code.tsx';

export const QR_CODE_LABEL = 'QR code for your authenticator app';

export function QrCode({ value }: { value: string }) {
  const qr = loadedQrCode();
  if (!qr) return null; // not loaded: the machine shows 'Generating QR code...' meanwhile
  return <qr.QRCodeSVG value={value} size={192} fgColor="#000000" bgColor="#FFFFFF" role="img" aria-label={QR_CODE_LABEL} />;
}
