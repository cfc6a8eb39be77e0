import { describe, expect, it } from '@jest/globals';
import { AdminService } from '../admin/index.js';
import { RateLimitExceeded } from '../rate-limits/index.js';
import {
  InMemoryRateLimiter,
  InMemoryRequestGate,
  InMemoryUnitOfWork,
  ManualClock,
  SeededRandom,
  SequentialIds,
  describeRequestGateContract,
} from '../testing/index.js';
import { AuthenticateRequest } from './authenticate-request.js';

describeRequestGateContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  const limiter = new InMemoryRateLimiter(uow.store);
  return { gate: new InMemoryRequestGate(uow.store), counter: (bucket: string, windowStart: Date) => limiter.count(bucket, windowStart), repos: uow.repos };
});

function given() {
  const uow = new InMemoryUnitOfWork();
  const clock = new ManualClock('2026-05-10T15:00:10.000Z');
  const admin = new AdminService(uow, uow.repos, clock, new SequentialIds(), new SeededRandom(7));
  const authenticate = new AuthenticateRequest(new InMemoryRequestGate(uow.store), clock);
  return { uow, clock, admin, authenticate };
}

describe('authenticating a request and counting it in one trip', () => {
  it('given a valid key, then it returns the principal and the smaller limit with its remainder', async () => {
    const { admin, authenticate } = given();
    const company = await admin.createCompany({ name: 'Acme', companyRpm: 100 });
    const issued = await admin.createApiKey(company.id, { name: 'k', scopes: ['*'], mode: 'live', rpm: 2 });
    await expect(authenticate.execute(issued.key)).resolves.toEqual({
      principal: { apiKey: issued.apiKey, company },
      rateLimit: { limit: 2, remaining: 1, reset: Date.parse('2026-05-10T15:01:00.000Z') / 1000 },
    });
  });

  it('given a key past its limit, then 429 names the key until the window ends', async () => {
    const { admin, authenticate, clock } = given();
    const company = await admin.createCompany({ name: 'Acme', companyRpm: 100 });
    const issued = await admin.createApiKey(company.id, { name: 'k', scopes: ['*'], mode: 'live', rpm: 1 });
    await authenticate.execute(issued.key);
    const refused = await authenticate.execute(issued.key).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitExceeded);
    expect(refused).toMatchObject({ code: 'TOO_MANY_REQUESTS', scope: 'key', retryAfterSeconds: 50 });
    clock.advance(50_000);
    await expect(authenticate.execute(issued.key)).resolves.toMatchObject({ rateLimit: { remaining: 0 } });
  });

  it('given two keys of a company over its limit, then 429 names the company', async () => {
    const { admin, authenticate } = given();
    const company = await admin.createCompany({ name: 'Acme', companyRpm: 1 });
    const a = await admin.createApiKey(company.id, { name: 'a', scopes: ['*'], mode: 'live', rpm: 10 });
    const b = await admin.createApiKey(company.id, { name: 'b', scopes: ['*'], mode: 'live', rpm: 10 });
    await authenticate.execute(a.key);
    await expect(authenticate.execute(b.key)).rejects.toMatchObject({ scope: 'company' });
  });

  it('given a missing, malformed, unknown, revoked or rotated-out key, then 401 and nothing is counted', async () => {
    const { admin, authenticate, clock, uow } = given();
    const company = await admin.createCompany({ name: 'Acme' });
    const revoked = await admin.createApiKey(company.id, { name: 'r', scopes: ['*'], mode: 'test' });
    await admin.revokeApiKey(revoked.apiKey.id);
    const rotated = await admin.createApiKey(company.id, { name: 'o', scopes: ['*'], mode: 'test' });
    await admin.rotateApiKey(rotated.apiKey.id, 10);
    clock.advance(10_000);
    for (const presented of [undefined, 'nope', `ak_test_${'x'.repeat(32)}`, revoked.key, rotated.key]) {
      await expect(authenticate.execute(presented)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
    expect(uow.store.rateLimits.size).toBe(0);
  });
});
