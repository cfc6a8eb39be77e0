import { describe, expect, it } from '@jest/globals';
import type { Principal } from '../api-keys/index.js';
import { createCompany } from '../companies/index.js';
import { ManualClock } from '../testing/index.js';
import { RateLimitExceeded, rateLimitBuckets, rateLimitVerdict } from './rate-limit-policy.js';
import { windowStartOf } from './rate-limiter.js';

/** Counts a request in both buckets of its window and gives the verdict, as the request gate and AuthenticateRequest do. */
function enforce(clock: ManualClock) {
  const counters = new Map<string, number>();
  return {
    async execute(principal: Principal) {
      const now = clock.now();
      const windowStart = windowStartOf(now);
      const [key, company] = rateLimitBuckets(principal).map((bucket) => {
        const id = `${bucket.key}@${windowStart.getTime()}`;
        counters.set(id, (counters.get(id) ?? 0) + 1);
        return counters.get(id)!;
      });
      return rateLimitVerdict(principal, key!, company!, now, windowStart);
    },
  };
}

function principal(keyRpm: number, companyRpm: number | null, keyId = 'key-1'): Principal {
  const company = createCompany('company-1', new Date(0), { name: 'Acme', companyRpm });
  return {
    company,
    apiKey: {
      id: keyId,
      companyId: company.id,
      name: 'k',
      prefix: 'ak_test_xxxx',
      keyHash: '',
      scopes: ['*'],
      mode: 'test',
      rpm: keyRpm,
      createdAt: new Date(0),
      revokedAt: null,
      expiresAt: null,
    },
  };
}

describe('rate limits in fixed 60-second windows', () => {
  it('reports the smaller limit and remainder, then refuses the key past its limit until the window ends', async () => {
    const clock = new ManualClock('2026-05-10T15:00:10.000Z');
    const policy = enforce(clock);
    const who = principal(2, 100);
    await expect(policy.execute(who)).resolves.toEqual({ limit: 2, remaining: 1, reset: Date.parse('2026-05-10T15:01:00.000Z') / 1000 });
    await expect(policy.execute(who)).resolves.toMatchObject({ remaining: 0 });
    const refused = await policy.execute(who).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitExceeded);
    expect(refused).toMatchObject({ code: 'TOO_MANY_REQUESTS', scope: 'key', retryAfterSeconds: 50 });

    clock.advance(50_000);
    await expect(policy.execute(who)).resolves.toMatchObject({ remaining: 1 });
  });

  it('names the company when the company limit is the one exhausted', async () => {
    const clock = new ManualClock('2026-05-10T15:00:59.500Z');
    const policy = enforce(clock);
    await policy.execute(principal(10, 1, 'key-a'));
    const refused = await policy.execute(principal(10, 1, 'key-b')).catch((e: unknown) => e);
    expect(refused).toMatchObject({ scope: 'company', retryAfterSeconds: 1 });
    expect((refused as Error).message).toContain('company');
  });
});
