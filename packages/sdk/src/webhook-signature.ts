// The SDK's own copy of the server's signing rule (packages/core/src/webhooks/webhook-signature.ts):
// the SDK is installed into other backends and so depends on no package of this repository.
// src/webhook-signature.unit.test.ts checks that both sign and verify alike.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Receivers may reject deliveries whose timestamp is further than this from their clock. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The `X-Webhook-Signature` of a delivery: lowercase hex HMAC-SHA256, keyed with the webhook
 * secret, over `<timestamp>.<raw body>` (timestamp in Unix seconds, as in `X-Webhook-Timestamp`).
 */
export function signWebhookPayload(secret: string, timestamp: number | string, rawBody: string | Uint8Array): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(rawBody);
  return hmac.digest('hex');
}

/** What a receiver got, as strings straight from the request (headers may be absent). */
export interface WebhookVerification {
  secret: string;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  /** `X-Webhook-Timestamp`. */
  timestamp: string | number | null | undefined;
  /** `X-Webhook-Signature`. */
  signature: string | null | undefined;
  /** The receiver's current time in Unix seconds. */
  nowSeconds: number;
  /** Defaults to 300 seconds. */
  toleranceSeconds?: number;
}

/** The outcome of a check: valid, or why not. */
export type WebhookVerificationResult =
  | { valid: true }
  | { valid: false; reason: 'missing_headers' | 'malformed_timestamp' | 'timestamp_out_of_tolerance' | 'signature_mismatch' };

/**
 * Checks a delivery's signature in constant time and rejects timestamps more than the tolerance
 * away from `nowSeconds` (a replayed old delivery, or a badly skewed clock).
 */
export function verifyWebhookSignature(input: WebhookVerification): WebhookVerificationResult {
  const { timestamp, signature } = input;
  if (timestamp === null || timestamp === undefined || !signature) return { valid: false, reason: 'missing_headers' };
  const text = String(timestamp).trim();
  if (!/^\d{1,12}$/.test(text)) return { valid: false, reason: 'malformed_timestamp' };
  const tolerance = input.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs(input.nowSeconds - Number(text)) > tolerance) return { valid: false, reason: 'timestamp_out_of_tolerance' };
  const expected = Buffer.from(signWebhookPayload(input.secret, text, input.rawBody), 'utf8');
  const given = Buffer.from(signature.trim().toLowerCase(), 'utf8');
  // timingSafeEqual needs equal lengths; the length of a hex SHA-256 digest is no secret.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { valid: false, reason: 'signature_mismatch' };
  return { valid: true };
}
