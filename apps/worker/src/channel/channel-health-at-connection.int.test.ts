import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ChannelQueues } from '@carteiro/core';
import { sql } from 'kysely';
import request from 'supertest';
import { createTestApi, type TestApi } from '../../../api/src/testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';

let api: TestApi;
let worker: TestWorker;
beforeAll(async () => {
  api = await createTestApi({ env: { SIMULATOR_SCAN_DELAY_MS: '200' } });
  worker = await createTestWorker({ database: api.database, env: { SIMULATOR_SCAN_DELAY_MS: '200' } });
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
});

it('checks the health of a number as it connects through the QR flow, without waiting for the minute check', async () => {
  const company = await api.createCompany({ company_rpm: 100_000 });
  const auth = { Authorization: `Bearer ${await api.createKey(company.id, { scopes: ['channel:manage'], mode: 'live', rpm: 100_000 })}` };
  const setor = await api.createSetor(company.id, { nome: 'Recém-conectada' });
  const created = await request(api.app).post('/v1/channel/instances').set(auth).send({ setor_id: setor.id }).expect(201);
  const instanceId: string = created.body.data.instance_id;
  const health = async () => {
    const res = await request(api.app).get('/v1/channel/instances/health').set(auth).expect(200);
    return res.body.data.items.find((i: { setor_id: string }) => i.setor_id === setor.id);
  };
  expect((await health()).health).toMatchObject({ state: 'unknown', lastCheckedAt: null });

  await request(api.app).get(`/v1/channel/instances/${instanceId}/qr`).set(auth).expect(200);
  await eventually(async () => (await request(api.app).get(`/v1/channel/instances/${instanceId}/status`).set(auth)).body.data.status === 'connected');

  const checked = await eventually(async () => {
    const item = await health();
    return item.health.lastCheckedAt ? item : null;
  });
  expect(checked).toMatchObject({
    phone_number: expect.stringMatching(/^\+55/),
    health: { state: 'healthy', connected: true, responding: true, consecutiveFailures: 0, error: null, lastCheckedAt: expect.any(String), lastOkAt: expect.any(String) },
  });
  // The connection's own job did it (not the minute's schedule).
  const jobs = await sql<{ state: string }>`SELECT state FROM pgboss.job WHERE name = ${ChannelQueues.healthAtConnection} AND data->>'instanceId' = ${instanceId}`.execute(api.database.db);
  expect(jobs.rows.map((j) => j.state)).toEqual(['completed']);
});
