import { afterAll, beforeAll, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

it('GET /v1/me names the calling key (scopes, mode, prefix, rpm) and its company, never the secret', async () => {
  const company = await api.createCompany({ name: 'Loja Azul' });
  const key = await api.createKey(company.id, { scopes: ['campaigns:read', 'credits:read'], mode: 'live', rpm: 120 });
  const res = await request(api.app).get('/v1/me').set('Authorization', `Bearer ${key}`);
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({
    company: { id: company.id, name: 'Loja Azul', timezone: company.timezone },
    api_key: { id: expect.any(String), name: expect.any(String), prefix: key.slice(0, 12), mode: 'live', scopes: ['campaigns:read', 'credits:read'], rpm: 120 },
  });
  expect(JSON.stringify(res.body)).not.toContain(key);

  const other = await api.createKey(company.id, { scopes: ['campaigns:read'] });
  const refused = await request(api.app).get('/v1/me').set('Authorization', `Bearer ${other}`);
  expect(refused.status).toBe(403);
  expect(refused.body.error.details).toEqual({ required_scope: 'credits:read' });
});
