import request from 'supertest';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Scopes } from '@carteiro/core';
import { createTestApi, type TestApi } from '../testing/test-api.js';

let api: TestApi;

beforeAll(async () => {
  api = await createTestApi();
});

afterAll(async () => {
  await api?.close();
});

it('refuses an unknown scope at key creation and names every valid scope', async () => {
  const company = await api.createCompany();
  const refused = await request(api.app)
    .post(`/admin/v1/companies/${company.id}/api-keys`)
    .set(api.adminAuth)
    .send({ name: 'backend', scopes: ['messages:write', 'messages:send'], mode: 'live' });
  expect(refused.status).toBe(400);
  const valid = ['*', ...Scopes];
  expect(refused.body.error).toMatchObject({
    code: 'VALIDATION_ERROR',
    message: `scopes.1 must be one of: ${valid.join(', ')}`,
    details: { errors: [{ field: 'scopes.1', message: `must be one of: ${valid.join(', ')}`, allowed: valid }] },
  });

  const keys = await request(api.app).get(`/admin/v1/companies/${company.id}/api-keys`).set(api.adminAuth);
  expect(keys.body.data.total).toBe(0);
});
