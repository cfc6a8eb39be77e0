import { createHash } from 'node:crypto';

/**
 * The number of the simulated phone that connects a setor: a Brazilian mobile (`+55 11 9xxxx-xxxx`)
 * derived from the setor id, so the same setor always gets the same number, in every process.
 */
export function simulatedPhoneNumber(setorId: string): string {
  const digest = createHash('sha256').update(`carteiro-simulator:${setorId}`).digest();
  const eight = (digest.readUInt32BE(0) % 90_000_000) + 10_000_000;
  return `+55119${eight}`;
}

/** What the simulated QR code encodes: one code per instance and QR window. */
export function simulatedQrContent(instanceId: string, windowStart: Date): string {
  const ref = createHash('sha256').update(`${instanceId}:${windowStart.getTime()}`).digest('base64url').slice(0, 32);
  return `2@carteiro-sim,${ref},${windowStart.getTime()}`;
}
