import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { signWebhookPayload, verifyWebhookSignature } from './webhook-signature.js';

const secret = 'f'.repeat(64);
const body = '{"event":"message.sent","data":{"x":"ção"}}';

describe('webhook signature', () => {
  it('is the lowercase hex HMAC-SHA256 of "<timestamp>.<raw body>", computed independently', () => {
    const expected = createHmac('sha256', secret).update(`1767225600.${body}`, 'utf8').digest('hex');
    expect(signWebhookPayload(secret, 1767225600, body)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies a good signature within 300 seconds, in either direction', () => {
    const signature = signWebhookPayload(secret, 1000, body);
    expect(verifyWebhookSignature({ secret, rawBody: body, timestamp: '1000', signature, nowSeconds: 1300 })).toEqual({ valid: true });
    expect(verifyWebhookSignature({ secret, rawBody: Buffer.from(body), timestamp: 1000, signature: signature.toUpperCase(), nowSeconds: 700 }).valid).toBe(true);
  });

  it('rejects old timestamps, other bodies, other secrets and missing headers', () => {
    const signature = signWebhookPayload(secret, 1000, body);
    expect(verifyWebhookSignature({ secret, rawBody: body, timestamp: '1000', signature, nowSeconds: 1301 })).toEqual({
      valid: false,
      reason: 'timestamp_out_of_tolerance',
    });
    expect(verifyWebhookSignature({ secret, rawBody: body + ' ', timestamp: '1000', signature, nowSeconds: 1000 })).toEqual({
      valid: false,
      reason: 'signature_mismatch',
    });
    expect(verifyWebhookSignature({ secret: 'e'.repeat(64), rawBody: body, timestamp: '1000', signature, nowSeconds: 1000 }).valid).toBe(false);
    expect(verifyWebhookSignature({ secret, rawBody: body, timestamp: '1001', signature, nowSeconds: 1000 }).valid).toBe(false);
    expect(verifyWebhookSignature({ secret, rawBody: body, timestamp: '1000', signature: 'abc', nowSeconds: 1000 }).valid).toBe(false);
    expect(verifyWebhookSignature({ secret, rawBody: body, timestamp: undefined, signature, nowSeconds: 1000 })).toEqual({ valid: false, reason: 'missing_headers' });
    expect(verifyWebhookSignature({ secret, rawBody: body, timestamp: '1e3', signature, nowSeconds: 1000 })).toEqual({ valid: false, reason: 'malformed_timestamp' });
  });
});
