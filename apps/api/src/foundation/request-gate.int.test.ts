import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Clock, hashApiKey } from '@carteiro/core';
import { ManualClock } from '@carteiro/core/testing';
import { ContainerModule } from 'inversify';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';

// Authentication and rate limiting share one statement per turn of the event loop (KyselyRequestGate):
// these cases send bursts of concurrent requests, so that many of them share a statement.
const clock = new ManualClock('2026-05-10T15:00:10.000Z');
let api: TestApi;
beforeAll(async () => {
  api = await createTestApi({
    overrides: [new ContainerModule(({ isBound, rebind }) => void (isBound(Clock) && rebind(Clock).toConstantValue(clock)))],
  });
});
afterAll(() => api.close());

const burst = (key: string, n: number) =>
  Promise.all(Array.from({ length: n }, () => request(api.app).get('/v1/limits').set({ Authorization: `Bearer ${key}` })));

describe('concurrent requests through the request gate', () => {
  it('admits exactly the key limit of a burst, each with its own remainder, and refuses the rest with 429', async () => {
    const company = await api.createCompany({ company_rpm: 1000 });
    const key = await api.createKey(company.id, { rpm: 20 });
    const answers = await burst(key, 30);
    const admitted = answers.filter((r) => r.status === 200);
    expect(admitted).toHaveLength(20);
    expect(admitted.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(r.body.error).toMatchObject({ code: 'TOO_MANY_REQUESTS', details: { limit_scope: 'key', limit: 20 } });
    expect(new Set(answers.map((r) => r.headers['x-ratelimit-reset']))).toEqual(new Set([String(Date.parse('2026-05-10T15:01:00.000Z') / 1000)]));
  });

  it('refuses every request of a revoked key at once, counts none of them, and keeps its sibling working', async () => {
    const company = await api.createCompany({ company_rpm: 1000 });
    const revoked = await api.createKey(company.id, { rpm: 100 });
    const sibling = await api.createKey(company.id, { rpm: 100 });
    const { id } = await api.database.db.selectFrom('api_keys').select('id').where('key_hash', '=', hashApiKey(revoked)).executeTakeFirstOrThrow();
    const admin = await request(api.app).delete(`/admin/v1/api-keys/${id}`).set(api.adminAuth);
    expect(admin.status).toBeLessThan(300);
    const [refused, admitted] = await Promise.all([burst(revoked, 10), burst(sibling, 10)]);
    for (const r of refused) expect(r.status).toBe(401);
    expect(admitted.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
    // Only the sibling's ten requests reached the company counter.
    expect(admitted.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => 90 + i));
  });
});
