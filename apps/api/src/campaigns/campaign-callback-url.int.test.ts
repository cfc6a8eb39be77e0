import { afterAll, beforeAll, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';

let api: TestApi;
beforeAll(async () => {
  // Production rules: callback URLs must be https to a public address.
  api = await createTestApi({ env: { ALLOW_PRIVATE_WEBHOOKS: '0' } });
});
afterAll(() => api.close());

it('refuses a callback_url that webhooks could never reach, with the reason', async () => {
  const { company, key, setor } = await api.createTenant({ settings: { safe_hours: { start: 0, end: 24 } } });
  const body = (callback_url: string) => ({
    name: 'c',
    recipients: [{ phone: '+5511999990010' }],
    message: { text: 'oi' },
    options: { callback_url },
  });
  for (const [url, reason] of [
    ['http://example.com/hook', 'scheme_not_allowed'],
    ['https://127.0.0.1/hook', 'private_address'],
    ['https://10.1.2.3/hook', 'private_address'],
  ] as const) {
    const res = await request(api.app).post('/v1/campaigns').set('Authorization', `Bearer ${key}`).send(body(url));
    expect(res.status).toBe(400);
    expect(res.body.error.details).toMatchObject({ field: 'options.callback_url', reason });
  }
  const active = await request(api.app).get('/v1/campaigns').set('Authorization', `Bearer ${key}`);
  expect(active.body.data.total).toBe(0);
});
