import { afterAll, beforeAll, expect, it } from '@jest/globals';
import request from 'supertest';
import { FakeEvolutionServer } from '@carteiro/channels/testing';
import { createTestApi, type TestApi } from '../testing/test-api.js';

// QR setores with a live key reach a (fake) Evolution server; every session goes through one of the listed proxies.
const fake = new FakeEvolutionServer({ apiKey: 'evo-key' });
let api: TestApi;
const previousProxies = process.env.QR_PROVIDER_PROXIES;
beforeAll(async () => {
  const url = await fake.start();
  process.env.QR_PROVIDER_PROXIES = 'http://carteiro:s3cret@proxy-1.test:3128,socks5://proxy-2.test:1080';
  api = await createTestApi({ env: { QR_PROVIDER_URL: url, QR_PROVIDER_API_KEY: 'evo-key' } });
});
afterAll(async () => {
  if (previousProxies === undefined) delete process.env.QR_PROVIDER_PROXIES;
  else process.env.QR_PROVIDER_PROXIES = previousProxies;
  await api?.close();
  await fake.stop();
});

it('gives a QR number its proxy at the provider and reports proxy_configured', async () => {
  const company = await api.createCompany({ company_rpm: 100_000 });
  const auth = { Authorization: `Bearer ${await api.createKey(company.id, { scopes: ['channel:manage'], mode: 'live', rpm: 100_000 })}` };
  const setor = await api.createSetor(company.id, { nome: 'Com proxy' });
  const created = await request(api.app).post('/v1/channel/instances').set(auth).send({ setor_id: setor.id });
  expect(created.status).toBe(201);
  expect(created.body.data.proxy_configured).toBe(false);
  const instanceId: string = created.body.data.instance_id;

  const qr = await request(api.app).get(`/v1/channel/instances/${instanceId}/qr`).set(auth);
  expect(qr.status).toBe(200);
  const name = `carteiro-${instanceId}`;
  expect(fake.instances.get(name)?.proxy).toMatchObject({ enabled: true, host: expect.stringMatching(/^proxy-[12]\.test$/) });

  const list = await request(api.app).get('/v1/channel/instances').set(auth);
  expect(list.body.data.items.find((i: { instance_id: string }) => i.instance_id === instanceId)).toMatchObject({ proxy_configured: true });
  const again = await request(api.app).post('/v1/channel/instances').set(auth).send({ setor_id: setor.id });
  expect(again.body.data).toMatchObject({ reused: true, proxy_configured: true });
});
