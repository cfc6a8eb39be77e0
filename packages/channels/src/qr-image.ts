import QRCode from 'qrcode';

/** Renders `content` as a QR code PNG, returned as a `data:image/png;base64,…` URL. */
export async function qrPngDataUrl(content: string): Promise<string> {
  return QRCode.toDataURL(content, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, scale: 6 });
}

/** Whether `value` is a PNG data URL (providers sometimes send one ready-made). */
export function isPngDataUrl(value: unknown): value is string {
  return typeof value === 'string' && /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/.test(value);
}
