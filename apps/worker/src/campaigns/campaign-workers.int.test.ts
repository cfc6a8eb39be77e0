import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../../../api/src/testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';
import { campaignTenant, outbox, phone, simulatorOverride } from './testing/campaign-e2e.js';

describe('several workers on one database (PACING_SCALE=0)', () => {
  let api: TestApi;
  const workers: TestWorker[] = [];

  beforeAll(async () => {
    api = await createTestApi({ env: { PACING_SCALE: '0' } });
    for (let i = 0; i < 3; i += 1) {
      workers.push(await createTestWorker({ database: api.database, env: { PACING_SCALE: '0' }, overrides: [simulatorOverride(api.database.db)] }));
    }
  });
  afterAll(async () => {
    for (const worker of workers) await worker.close();
    await api?.close();
  });

  it('sends every message of concurrent campaigns exactly once, whichever worker holds each number', async () => {
    const t = await campaignTenant(api, { boxes: 3, warmingLimit: 10_000 });
    const ids: string[] = [];
    for (let c = 0; c < 2; c += 1) {
      const recipients = Array.from({ length: 400 }, (_, i) => ({ phone: phone(5_000 + c * 1_000 + i) }));
      const res = await request(api.app).post('/v1/campaigns').set(t.auth).send({ name: `C${c}`, recipients, message: { text: 'Oi {{nome}}' }, options: { anti_ban_level: 'normal' } });
      expect(res.status).toBe(202);
      ids.push(res.body.data.id);
    }
    for (const id of ids) {
      await eventually(async () => (await request(api.app).get(`/v1/campaigns/${id}`).set(t.auth)).body.data.status === 'concluido', { timeoutMs: 30_000 });
      expect((await request(api.app).get(`/v1/campaigns/${id}`).set(t.auth)).body.data).toMatchObject({ total_enviados: 400, progress: 100 });
    }
    const sent = await outbox(api.database.db, t.company.id);
    expect(sent).toHaveLength(800);
    expect(new Set(sent.map((m) => m.client_message_id)).size).toBe(800);
    expect(new Set(sent.map((m) => m.to_number)).size).toBe(800);
    const events = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', t.company.id).where('event', '=', 'message.sent').execute();
    expect(new Set(events.map((e) => (e.data as { detailId: string }).detailId)).size).toBe(800);
    expect(events).toHaveLength(800);
  }, 60_000);
});
