import { describe, expect, it } from '@jest/globals';
// The server's helper, by path: the SDK package itself depends on nothing of this repository.
import * as server from '../../core/src/webhooks/webhook-signature.js';
import * as sdk from './webhook-signature.js';

const secrets = ['f'.repeat(64), 'a secret with spaces', 'çã'];
const bodies = ['{"event":"message.sent","data":{"x":"ção"}}', '', '{"a":[1,2,3]}\n'];

describe("the SDK's webhook signature helper", () => {
  it('signs exactly as the server does, for strings and bytes', () => {
    for (const secret of secrets) {
      for (const body of bodies) {
        for (const timestamp of [0, 1767225600, '1767225600']) {
          expect(sdk.signWebhookPayload(secret, timestamp, body)).toBe(server.signWebhookPayload(secret, timestamp, body));
          expect(sdk.signWebhookPayload(secret, timestamp, Buffer.from(body))).toBe(server.signWebhookPayload(secret, timestamp, body));
        }
      }
    }
    expect(sdk.WEBHOOK_TOLERANCE_SECONDS).toBe(server.WEBHOOK_TOLERANCE_SECONDS);
  });

  it('verifies what the server signs and gives the same verdicts and reasons', () => {
    const secret = secrets[0]!;
    const body = bodies[0]!;
    const signature = server.signWebhookPayload(secret, 1000, body);
    const cases: server.WebhookVerification[] = [
      { secret, rawBody: body, timestamp: '1000', signature, nowSeconds: 1300 },
      { secret, rawBody: Buffer.from(body), timestamp: 1000, signature: signature.toUpperCase(), nowSeconds: 700 },
      { secret, rawBody: body, timestamp: '1000', signature, nowSeconds: 1301 },
      { secret, rawBody: `${body} `, timestamp: '1000', signature, nowSeconds: 1000 },
      { secret: 'e'.repeat(64), rawBody: body, timestamp: '1000', signature, nowSeconds: 1000 },
      { secret, rawBody: body, timestamp: '1000', signature: 'abc', nowSeconds: 1000 },
      { secret, rawBody: body, timestamp: undefined, signature, nowSeconds: 1000 },
      { secret, rawBody: body, timestamp: '1e3', signature, nowSeconds: 1000 },
      { secret, rawBody: body, timestamp: '1000', signature, nowSeconds: 2000, toleranceSeconds: 1000 },
    ];
    expect(cases.map((c) => sdk.verifyWebhookSignature(c))).toEqual(cases.map((c) => server.verifyWebhookSignature(c)));
    expect(cases.map((c) => sdk.verifyWebhookSignature(c).valid)).toEqual([true, true, false, false, false, false, false, false, true]);
  });
});
