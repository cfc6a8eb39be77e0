import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Express } from 'express';
import request from 'supertest';
import { createTestApi, secondApiApp, type TestApi } from '../testing/test-api.js';

let api: TestApi;
let secondApp: Express;
beforeAll(async () => {
  api = await createTestApi();
  // A second API process: its own container and app, the same database.
  secondApp = secondApiApp(api);
});
afterAll(() => api.close());

describe('rate limits shared by two API instances on one database', () => {
  it('counts one window per key across instances and names the key limit in the 429', async () => {
    const company = await api.createCompany({ company_rpm: 1000 });
    const key = await api.createKey(company.id, { rpm: 5 });
    const auth = { Authorization: `Bearer ${key}` };
    const apps = [api.app, secondApp, api.app, secondApp, api.app];
    const remaining: number[] = [];
    for (const app of apps) {
      const res = await request(app).get('/v1/limits').set(auth);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      remaining.push(Number(res.headers['x-ratelimit-remaining']));
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const limited = await request(secondApp).get('/v1/limits').set(auth);
    expect(limited.status).toBe(429);
    expect(limited.body.success).toBe(false);
    expect(limited.body.error.code).toBe('TOO_MANY_REQUESTS');
    expect(limited.body.error.message).toMatch(/API key/);
    expect(limited.body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(limited.body.retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['retry-after']).toBe(String(limited.body.retryAfter));
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('counts all keys of a company together and names the company limit', async () => {
    const company = await api.createCompany({ company_rpm: 3 });
    const keys = [await api.createKey(company.id, { rpm: 100 }), await api.createKey(company.id, { rpm: 100 })];
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await request(i % 2 ? secondApp : api.app).get('/v1/limits').set('Authorization', `Bearer ${keys[i % 2]}`);
      statuses.push(res.status);
      if (res.status === 429) expect(res.body.error.message).toMatch(/company/);
      else expect(res.headers['x-ratelimit-limit']).toBe('3');
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('never counts one company against another', async () => {
    const a = await api.createCompany({ company_rpm: 1 });
    const b = await api.createCompany({ company_rpm: 1 });
    const keyA = await api.createKey(a.id);
    const keyB = await api.createKey(b.id);
    expect((await request(api.app).get('/v1/limits').set('Authorization', `Bearer ${keyA}`)).status).toBe(200);
    expect((await request(api.app).get('/v1/limits').set('Authorization', `Bearer ${keyB}`)).status).toBe(200);
    expect((await request(api.app).get('/v1/limits').set('Authorization', `Bearer ${keyA}`)).status).toBe(429);
  });
});
