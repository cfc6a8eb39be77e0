import { describe, expect, it } from '@jest/globals';
import type { Principal } from '../api-keys/authenticate.js';
import { createCompany } from '../companies/company.js';
import { InMemoryRateLimiter, InMemoryStore, ManualClock } from '../testing/index.js';
import { EnforceRateLimit, RateLimitExceeded } from './rate-limit-policy.js';

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
    const policy = new EnforceRateLimit(new InMemoryRateLimiter(new InMemoryStore()), clock);
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
    const policy = new EnforceRateLimit(new InMemoryRateLimiter(new InMemoryStore()), clock);
    await policy.execute(principal(10, 1, 'key-a'));
    const refused = await policy.execute(principal(10, 1, 'key-b')).catch((e: unknown) => e);
    expect(refused).toMatchObject({ scope: 'company', retryAfterSeconds: 1 });
    expect((refused as Error).message).toContain('company');
  });
});
