import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../../../worker/src/testing/test-worker.js';

// The operator changes a company's billing (modality, balance) while a campaign holds a reservation.

let api: TestApi;
let worker: TestWorker;
beforeAll(async () => {
  api = await createTestApi();
  worker = await createTestWorker({ database: api.database, env: { PACING_SCALE: '0.05' } });
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
});

describe('an avulso campaign after the company became mensal', () => {
  it('retries its failures without asking a balance the company no longer has', async () => {
    const company = await api.createCompany({ company_rpm: 100_000, safe_hours: { start: 0, end: 24 }, modality: 'avulso', avulso_balance: 2 });
    const setor = await api.createSetor(company.id);
    await api.connectSetor(company.id, setor.id);
    const auth = { Authorization: `Bearer ${await api.createKey(company.id, { mode: 'live', rpm: 100_000 })}` };
    // ...0002 is a recipient who blocked the number (a final failure, refunded).
    const campaign = (
      await request(api.app).post('/v1/campaigns').set(auth).send({ name: 'Promo', setor_id: setor.id, recipients: [{ phone: '+5511987654010' }, { phone: '+5511987650002' }], message: { text: 'Oi' } }).expect(202)
    ).body.data;
    const done = await eventually(async () => {
      const c = (await request(api.app).get(`/v1/campaigns/${campaign.id}`).set(auth).expect(200)).body.data;
      return c.status === 'concluido' ? c : null;
    }, { timeoutMs: 60_000 });
    expect(done).toMatchObject({ total_enviados: 1, total_falhas: 1 });
    expect((await request(api.app).get('/v1/billing/balance').set(auth).expect(200)).body.data.balances.messages).toBe(1);

    await request(api.app).patch(`/admin/v1/companies/${company.id}`).set(api.adminAuth).send({ modality: 'mensal', avulso_balance: 0 }).expect(200);

    const retry = await request(api.app).post(`/v1/campaigns/${campaign.id}/retry`).set(auth).send({ all_failures: true });
    expect([retry.status, retry.body]).toEqual([200, expect.objectContaining({ data: expect.objectContaining({ retried: 1 }) })]);
  });
});
