import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../../../api/src/testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../testing/test-worker.js';
import { campaignTenant, outbox, phone, simulatorOverride } from './testing/campaign-e2e.js';

describe('campaign dispatch through the worker and the simulator (PACING_SCALE=0.01)', () => {
  let api: TestApi;
  let worker: TestWorker;

  beforeAll(async () => {
    api = await createTestApi({ env: { PACING_SCALE: '0.01' } });
    worker = await createTestWorker({ database: api.database, env: { PACING_SCALE: '0.01' }, overrides: [simulatorOverride(api.database.db)] });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  const detail = async (auth: Record<string, string>, id: string) => (await request(api.app).get(`/v1/campaigns/${id}`).set(auth)).body.data;

  it('sends a 3-number campaign once per recipient, personalised and paced per number, and completes', async () => {
    const t = await campaignTenant(api, { boxes: 3 });
    const recipients = Array.from({ length: 9 }, (_, i) => ({ phone: phone(i), name: `Maria${i} Silva`, variables: { pedido: `P${i}` } }));
    const created = await request(api.app)
      .post('/v1/campaigns')
      .set(t.auth)
      .send({ name: 'Demo', recipients, message: { text: '{{saudacao}} {{primeiro_nome}}, pedido {{pedido}}' }, options: { anti_ban_level: 'normal' } });
    expect(created.status).toBe(202);
    const id = created.body.data.id;
    await eventually(async () => (await detail(t.auth, id)).status === 'concluido', { timeoutMs: 20_000 });
    expect(await detail(t.auth, id)).toMatchObject({ total_enviados: 9, progress: 100 });
    const sent = await outbox(api.database.db, t.company.id);
    expect(sent).toHaveLength(9);
    expect(new Set(sent.map((m) => m.to_number)).size).toBe(9);
    expect(new Set(sent.map((m) => m.setor_id)).size).toBe(3);
    for (const m of sent) expect(m.text).toMatch(/^(Bom dia|Boa tarde|Boa noite) Maria\d, pedido P\d$/);
    // A new number is in warming stage 1: at least 30 s x 0.01 between two sends of the same number.
    for (const setorId of t.setores) {
      const times = sent.filter((m) => m.setor_id === setorId).map((m) => m.sent_at.getTime());
      for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(290);
    }
    const events = await api.database.db.selectFrom('domain_events').select(['event', 'data', 'callback_url']).where('company_id', '=', t.company.id).orderBy('seq').execute();
    const names = events.map((e) => e.event);
    expect(names.filter((n) => n === 'message.sent')).toHaveLength(9);
    expect(names[0]).toBe('campaign.started');
    expect(names.at(-1)).toBe('campaign.completed');
  }, 30_000);

  it('moves a banned number’s messages to the rest of the pool and records the failure readably', async () => {
    const t = await campaignTenant(api, { boxes: 2, warmingLimit: 1_000 });
    // Recipient 0 goes to the first setor and bans it (simulator: numbers ending in 0005).
    const recipients = [{ phone: '+5511966660005' }, ...Array.from({ length: 7 }, (_, i) => ({ phone: phone(100 + i) }))];
    const created = await request(api.app).post('/v1/campaigns').set(t.auth).send({ name: 'Ban', recipients, message: { text: 'Oi {{nome}}' }, options: { anti_ban_level: 'normal' } });
    const id = created.body.data.id;
    await eventually(async () => (await detail(t.auth, id)).status === 'concluido', { timeoutMs: 20_000 });
    expect(await detail(t.auth, id)).toMatchObject({ total_enviados: 7, total_falhas: 1 });
    const messages = (await request(api.app).get(`/v1/campaigns/${id}/messages?limit=200`).set(t.auth)).body.data.items;
    expect(messages[0]).toMatchObject({ status: 'falha', erro_codigo: 'SENDER_BANNED', erro_legivel: expect.any(String), actual_setor_id: null });
    const moved = messages.filter((m: { was_reassigned: boolean }) => m.was_reassigned);
    expect(moved.length).toBeGreaterThan(0);
    for (const m of moved) expect(m).toMatchObject({ status: 'enviado', assigned_setor_id: t.setores[0], actual_setor_id: t.setores[1] });
    const instance = await api.database.db.selectFrom('channel_instances').select('status').where('setor_id', '=', t.setores[0]!).executeTakeFirstOrThrow();
    expect(instance.status).toBe('disconnected');
  }, 30_000);

  it('pauses and resumes a running campaign without losing or repeating a message', async () => {
    const t = await campaignTenant(api, { boxes: 1, warmingLimit: 1_000 });
    const recipients = Array.from({ length: 12 }, (_, i) => ({ phone: phone(200 + i) }));
    const id = (await request(api.app).post('/v1/campaigns').set(t.auth).send({ name: 'Pause', recipients, message: { text: 'x' }, options: { anti_ban_level: 'normal' } })).body.data.id;
    await eventually(async () => (await detail(t.auth, id)).total_enviados >= 2, { timeoutMs: 20_000 });
    expect((await request(api.app).post(`/v1/campaigns/${id}/pause`).set(t.auth)).body.data).toEqual({ status: 'paused' });
    const resumed = await request(api.app).post(`/v1/campaigns/${id}/resume`).set(t.auth);
    expect(resumed.body.data.status).toBe('processing');
    expect(resumed.body.data.pending_requeued).toBeGreaterThan(0);
    await eventually(async () => (await detail(t.auth, id)).status === 'concluido', { timeoutMs: 20_000 });
    const sent = await outbox(api.database.db, t.company.id);
    expect(sent).toHaveLength(12);
    expect(new Set(sent.map((m) => m.to_number)).size).toBe(12);
    const paused = await api.database.db.selectFrom('domain_events').select('event').where('company_id', '=', t.company.id).where('event', '=', 'campaign.paused').execute();
    expect(paused).toHaveLength(1);
  }, 30_000);
});
