import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../../../api/src/testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';
import { campaignTenant, phone, simulatorOverride } from '../campaigns/testing/campaign-e2e.js';

/**
 * SIMULATOR_RECEIPT_DELAY_MS (conversations.md §10): simulated sends, single and campaign, turn
 * delivered after the delay through the worker's sweep of the simulator outbox, once each.
 */
describe('simulated delivery receipts', () => {
  let api: TestApi;
  let worker: TestWorker;

  beforeAll(async () => {
    api = await createTestApi({ env: { PACING_SCALE: '0.01' } });
    worker = await createTestWorker({ database: api.database, env: { PACING_SCALE: '0.01', SIMULATOR_RECEIPT_DELAY_MS: '300' }, overrides: [simulatorOverride(api.database.db)] });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  const eventsOf = (companyId: string, name: string) =>
    api.database.db.selectFrom('domain_events').select(['data', 'occurred_at']).where('company_id', '=', companyId).where('event', '=', name).execute();

  it('a single send turns delivered once, the delay after the simulator sent it', async () => {
    const { company, key, setor } = await api.createTenant({ settings: { company_rpm: 10_000 }, key: { mode: 'live', rpm: 10_000 } });
    const sent = await request(api.app).post('/v1/messages').set({ Authorization: `Bearer ${key}` }).send({ phone: '+5511955558001', message: { text: 'Oi' } });
    expect(sent.status).toBe(201);
    const id = sent.body.data.message_id as string;
    const row = await eventually(async () => {
      const r = await api.database.db.selectFrom('messages').select(['status', 'sent_at', 'delivered_at', 'read_at']).where('id', '=', id).executeTakeFirstOrThrow();
      return r.status === 'delivered' ? r : null;
    });
    expect(row.read_at).toBeNull();
    // Delivered the delay after the simulator took it (the record's sent_at is when the API stored the answer).
    const simulated = await api.database.db.selectFrom('simulator_messages').select('sent_at').where('company_id', '=', company.id).executeTakeFirstOrThrow();
    expect(row.delivered_at!.getTime() - simulated.sent_at.getTime()).toBe(300);
    const delivered = await eventsOf(company.id, 'message.delivered');
    expect(delivered.map((e) => e.data)).toEqual([expect.objectContaining({ messageId: id, status: 'delivered', campaignId: null })]);
    // Later sweeps owe it nothing more.
    const owed = await api.database.db.selectFrom('simulator_receipts_owed').select('id').where('setor_id', '=', setor.id).execute();
    expect(owed).toEqual([]);
  });

  it('campaign messages turn delivered too (messageId null, campaignId and detailId set)', async () => {
    const t = await campaignTenant(api, { boxes: 1, warmingLimit: 1_000 });
    const created = await request(api.app)
      .post('/v1/campaigns')
      .set(t.auth)
      .send({ name: 'Recibos', recipients: [{ phone: phone(7001) }, { phone: phone(7002) }], message: { text: 'Oi' }, options: { anti_ban_level: 'normal' } });
    expect(created.status).toBe(202);
    const campaignId = created.body.data.id as string;
    const delivered = await eventually(async () => {
      const events = await eventsOf(t.company.id, 'message.delivered');
      return events.length === 2 ? events : null;
    }, { timeoutMs: 20_000 });
    expect(delivered.map((e) => e.data)).toEqual([
      expect.objectContaining({ messageId: null, campaignId, status: 'delivered', conversationId: null }),
      expect.objectContaining({ messageId: null, campaignId, status: 'delivered', conversationId: null }),
    ]);
    const rows = await api.database.db.selectFrom('campaign_messages').select(['id', 'status', 'delivered_at' as never]).where('campaign_id', '=', campaignId).execute();
    expect(rows.every((r) => r.status === 'enviado' && (r as unknown as { delivered_at: Date | null }).delivered_at !== null)).toBe(true);
    expect(new Set(delivered.map((e) => (e.data as { detailId: string }).detailId))).toEqual(new Set(rows.map((r) => r.id)));
  }, 30_000);
});
