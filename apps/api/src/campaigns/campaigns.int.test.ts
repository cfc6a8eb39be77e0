import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { Clock, IdGenerator, StartCampaign, UnitOfWork } from '@carteiro/core';
import { createTestApi, type TestApi } from '../testing/test-api.js';

const phone = (n: number) => `+55119${String(80000000 + n).padStart(8, '0')}`;
const recipients = (count: number, offset = 0) => Array.from({ length: count }, (_, i) => ({ phone: phone(offset + i), name: `Cliente ${i}` }));
const body = (count = 2, extra: Record<string, unknown> = {}) => ({ name: 'Promo', recipients: recipients(count), message: { text: 'Olá {{nome}}' }, ...extra });
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const ALWAYS_SAFE = { start: 0, end: 24 };

describe('/v1/campaigns', () => {
  let api: TestApi;

  /** A company with one connected setor and keys; every setting can be overridden. */
  async function tenant(settings: Record<string, unknown> = {}, options: { mode?: 'live' | 'test'; boxes?: number } = {}) {
    const company = await api.createCompany({ company_rpm: 100_000, safe_hours: ALWAYS_SAFE, ...settings });
    const setores = [];
    for (let i = 0; i < (options.boxes ?? 1); i += 1) {
      const setor = await api.createSetor(company.id, { nome: `Caixa ${i}` });
      await api.connectSetor(company.id, setor.id);
      setores.push(setor.id);
    }
    const key = await api.createKey(company.id, { scopes: ['campaigns:read', 'campaigns:write'], mode: options.mode ?? 'live', rpm: 100_000 });
    return { company, setores, key, auth: bearer(key) };
  }

  async function start(id: string) {
    const c = api.container;
    await new StartCampaign(c.get(UnitOfWork), c.get(Clock), c.get(IdGenerator)).execute(id);
  }

  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => api?.close());

  describe('POST /v1/campaigns', () => {
    it('answers 202 with the creation response and stores every recipient', async () => {
      const t = await tenant({}, { boxes: 2 });
      const res = await request(api.app).post('/v1/campaigns').set(t.auth).send(body(3, { title: 'Verão' }));
      expect(res.status).toBe(202);
      expect(res.body).toEqual({
        success: true,
        data: {
          id: expect.any(String),
          status: 'queued',
          total_recipients: 3,
          credits_reserved: 0,
          created_at: expect.any(String),
          execution_mode: 'immediate',
          scheduled_for: null,
          waiting_reason: null,
          distribution_mode: 'multi_number',
          number_pool_size: 2,
        },
      });
      const detail = await request(api.app).get(`/v1/campaigns/${res.body.data.id}`).set(t.auth);
      expect(detail.body.data).toMatchObject({ status: 'pendente', total_destinatarios: 3, progress: 0, title: 'Verão', imagem_url: null });
    });

    it('needs a key (401) with campaigns:write (403)', async () => {
      const t = await tenant();
      expect((await request(api.app).post('/v1/campaigns').send(body())).status).toBe(401);
      const readOnly = await api.createKey(t.company.id, { scopes: ['campaigns:read'], rpm: 100_000 });
      const res = await request(api.app).post('/v1/campaigns').set(bearer(readOnly)).send(body());
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      const writeOnly = await api.createKey(t.company.id, { scopes: ['campaigns:write'], rpm: 100_000 });
      expect((await request(api.app).get('/v1/campaigns').set(bearer(writeOnly))).status).toBe(403);
    });

    it.each([
      ['missing name', { name: undefined }, 'BAD_REQUEST', 'name is required'],
      ['missing recipients', { recipients: undefined }, 'BAD_REQUEST', 'recipients is required (1 to 10000 items)'],
      ['too many recipients', { recipients: recipients(10_001) }, 'BAD_REQUEST', 'Maximum 10000 recipients'],
      ['a wrong type', { recipients: 'everyone' }, 'VALIDATION_ERROR', undefined],
      ['an unknown field', { colour: 'red' }, 'VALIDATION_ERROR', undefined],
      ['an unknown anti_ban_level', { options: { anti_ban_level: 'rapido' } }, 'VALIDATION_ERROR', undefined],
      ['an invalid phone', { recipients: [{ phone: '12' }] }, 'INVALID_NUMBER', undefined],
      ['a non-HTTPS media_url', { message: { text: 'x', media_url: 'http://example.com/a.png', media_type: 'image' } }, 'VALIDATION_ERROR', undefined],
      ['variants with a template', { message: { template_name: 't', template_language: 'pt_BR', variants: ['a'] } }, 'VALIDATION_ERROR', undefined],
      ['setor_id with setor_ids', { setor_id: '00000000-0000-4000-8000-000000000001', setor_ids: ['00000000-0000-4000-8000-000000000002'] }, 'VALIDATION_ERROR', undefined],
    ])('answers 400 for %s', async (_what, override, code, message) => {
      const t = await tenant();
      const res = await request(api.app).post('/v1/campaigns').set(t.auth).send({ ...body(1), ...override });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe(code);
      if (message) expect(res.body.error.message).toBe(message);
    });

    it('answers 404 for another company box and 403 MULTI_NUMBER_DISABLED without the feature', async () => {
      const a = await tenant();
      const b = await tenant({ multi_number_enabled: false }, { boxes: 2 });
      expect((await request(api.app).post('/v1/campaigns').set(b.auth).send(body(1, { setor_id: a.setores[0] }))).status).toBe(404);
      const res = await request(api.app).post('/v1/campaigns').set(b.auth).send(body(1, { setor_ids: b.setores }));
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('MULTI_NUMBER_DISABLED');
    });

    it('answers 403 SAFE_HOUR_VIOLATION with Retry-After and every detail outside the window', async () => {
      const hour = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', hourCycle: 'h23', hour: '2-digit' }).format(new Date()));
      const startHour = (hour + 1) % 24;
      const t = await tenant({ safe_hours: { start: startHour, end: startHour + 1 } });
      const res = await request(api.app).post('/v1/campaigns').set(t.auth).send(body(1));
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('SAFE_HOUR_VIOLATION');
      expect(Object.keys(res.body.error.details).sort()).toEqual(
        [
          'current_hour_brasilia', 'current_minute_brasilia', 'current_time_brasilia', 'docs_url', 'next_allowed_at', 'next_allowed_at_brasilia',
          'retry_after_seconds', 'safe_hour_end', 'safe_hour_start', 'suggested_schedule_at',
        ].sort(),
      );
      expect(res.headers['retry-after']).toBe(String(res.body.error.details.retry_after_seconds));
      const scheduled = await request(api.app)
        .post('/v1/campaigns')
        .set(t.auth)
        .send(body(1, { options: { schedule_at: res.body.error.details.suggested_schedule_at } }));
      expect(scheduled.status).toBe(202);
      expect(scheduled.body.data).toMatchObject({ execution_mode: 'scheduled', scheduled_for: res.body.error.details.suggested_schedule_at });
    });

    it('answers 403 for an inactive modality and 402 BULK_DISABLED without balance', async () => {
      const inactive = await tenant({ modality: 'inativo' });
      const res = await request(api.app).post('/v1/campaigns').set(inactive.auth).send(body(1));
      expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
      const poor = await tenant({ modality: 'avulso', avulso_balance: 1 });
      const broke = await request(api.app).post('/v1/campaigns').set(poor.auth).send(body(2));
      expect([broke.status, broke.body.error.code]).toEqual([402, 'BULK_DISABLED']);
    });
  });

  describe('races (decided in PostgreSQL)', () => {
    it('never exceeds the concurrency cap under concurrent creations', async () => {
      const t = await tenant({ concurrent_campaigns_limit: 2 });
      const results = await Promise.all(Array.from({ length: 6 }, () => request(api.app).post('/v1/campaigns').set(t.auth).send(body(1))));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([202, 202, 403, 403, 403, 403]);
      const refused = results.find((r) => r.status === 403)!;
      expect(refused.body.error.code).toBe('CONCURRENT_LIMIT_EXCEEDED');
      expect(refused.headers['retry-after']).toBe(String(refused.body.error.details.retry_after_seconds));
      expect(refused.body.error.details).toMatchObject({ limit: 2, active: 2, docs_url: expect.any(String) });
      expect(refused.body.error.details.active_campaigns).toHaveLength(2);
      expect(refused.body.error.details.active_campaigns[0]).toEqual({ id: expect.any(String), titulo: 'Promo', status: 'pendente', scheduled_for: null, created_at: expect.any(String) });
    });

    it('never exceeds the daily limit or the balance under concurrent creations', async () => {
      const t = await tenant({ modality: 'avulso', avulso_balance: 10, daily_limit: 1000, concurrent_campaigns_limit: 50 });
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => request(api.app).post('/v1/campaigns').set(t.auth).send({ ...body(3), recipients: recipients(3, i * 10) })));
      expect(results.filter((r) => r.status === 202)).toHaveLength(3);
      expect(results.filter((r) => r.status === 402).every((r) => r.body.error.code === 'BULK_DISABLED')).toBe(true);
      const company = await request(api.app).get(`/admin/v1/companies/${t.company.id}`).set(api.adminAuth);
      expect(company.body.data.avulso_balance).toBe(1);

      const daily = await tenant({ daily_limit: 10, concurrent_campaigns_limit: 50 });
      const attempts = await Promise.all(Array.from({ length: 6 }, (_, i) => request(api.app).post('/v1/campaigns').set(daily.auth).send({ ...body(3), recipients: recipients(3, i * 10) })));
      expect(attempts.filter((r) => r.status === 202)).toHaveLength(3);
      const refused = attempts.find((r) => r.status === 403)!;
      expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'Daily messages limit exceeded', details: { limit: 10, requested: 3 } });
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for 24 hours with meta.idempotent_replay, scoped to the company', async () => {
      const t = await tenant();
      const key = 'b0a6f8a2-6c55-4c43-9b1c-0d8c1f6a5e01';
      const first = await request(api.app).post('/v1/campaigns').set(t.auth).set('Idempotency-Key', key).send(body(2));
      const again = await request(api.app).post('/v1/campaigns').set(t.auth).set('Idempotency-Key', key).send(body(2));
      expect(first.status).toBe(202);
      expect(first.body.meta).toBeUndefined();
      expect(again.status).toBe(202);
      expect(again.body).toEqual({ success: true, data: first.body.data, meta: { idempotent_replay: true } });
      const list = await request(api.app).get('/v1/campaigns').set(t.auth);
      expect(list.body.data.total).toBe(1);
      const other = await tenant();
      const elsewhere = await request(api.app).post('/v1/campaigns').set(other.auth).set('Idempotency-Key', key).send(body(2));
      expect(elsewhere.status).toBe(202);
      expect(elsewhere.body.data.id).not.toBe(first.body.data.id);
    });

    it('answers 422 for the same key with another body', async () => {
      const t = await tenant();
      await request(api.app).post('/v1/campaigns').set(t.auth).set('Idempotency-Key', 'k-422').send(body(2));
      const res = await request(api.app).post('/v1/campaigns').set(t.auth).set('Idempotency-Key', 'k-422').send(body(3));
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_MISMATCH');
    });

    it('creates once when the same key arrives concurrently (409 while in flight, or a replay)', async () => {
      const t = await tenant({ concurrent_campaigns_limit: 50 });
      const results = await Promise.all(Array.from({ length: 5 }, () => request(api.app).post('/v1/campaigns').set(t.auth).set('Idempotency-Key', 'k-race').send(body(200))));
      const created = results.filter((r) => r.status === 202);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((r) => r.body.data.id)).size).toBe(1);
      for (const r of results.filter((r) => r.status !== 202)) expect([r.status, r.body.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
      expect((await request(api.app).get('/v1/campaigns').set(t.auth)).body.data.total).toBe(1);
    });
  });

  describe('reads and actions', () => {
    it('lists with a status filter and pagination, details, messages and recipients; 404 for others', async () => {
      const t = await tenant({ concurrent_campaigns_limit: 10 });
      const a = (await request(api.app).post('/v1/campaigns').set(t.auth).send(body(3))).body.data.id;
      const b = (await request(api.app).post('/v1/campaigns').set(t.auth).send(body(1))).body.data.id;
      await start(a);
      const all = await request(api.app).get('/v1/campaigns?limit=1&page=2').set(t.auth);
      expect(all.body.data).toMatchObject({ total: 2, page: 2, limit: 1, totalPages: 2 });
      expect(all.body.data.items[0]).toEqual({
        id: a,
        name: 'Promo',
        mensagem: 'Olá {{nome}}',
        total_destinatarios: 3,
        total_enviados: 0,
        total_falhas: 0,
        total_pulados: 0,
        status: 'processando',
        created_at: expect.any(String),
      });
      const pending = await request(api.app).get('/v1/campaigns?status=pendente').set(t.auth);
      expect(pending.body.data.items.map((c: { id: string }) => c.id)).toEqual([b]);
      expect((await request(api.app).get('/v1/campaigns?limit=101').set(t.auth)).status).toBe(400);
      expect((await request(api.app).get('/v1/campaigns?status=done').set(t.auth)).status).toBe(400);

      const messages = await request(api.app).get(`/v1/campaigns/${a}/messages?status=pendente&limit=200`).set(t.auth);
      expect(messages.body.data.total).toBe(3);
      expect(messages.body.data.items[0]).toEqual({
        id: expect.any(String),
        status: 'pendente',
        erro: null,
        erro_codigo: null,
        erro_legivel: null,
        created_at: expect.any(String),
        sent_at: null,
        assigned_setor_id: t.setores[0],
        actual_setor_id: null,
        was_reassigned: false,
        clientes: { nome: 'Cliente 0', telefone: phone(0) },
      });
      expect((await request(api.app).get(`/v1/campaigns/${a}/messages?limit=201`).set(t.auth)).status).toBe(400);
      const found = await request(api.app).get(`/v1/campaigns/${a}/recipients?q=${encodeURIComponent(phone(2).slice(-6))}`).set(t.auth);
      expect(found.body.data.items.map((r: { telefone: string }) => r.telefone)).toEqual([phone(2)]);

      const other = await tenant();
      for (const path of [`/v1/campaigns/${a}`, `/v1/campaigns/${a}/messages`, `/v1/campaigns/${a}/recipients`, '/v1/campaigns/not-a-uuid']) {
        const res = await request(api.app).get(path).set(other.auth);
        expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
      }
      expect((await request(api.app).post(`/v1/campaigns/${a}/pause`).set(other.auth)).status).toBe(404);
    });

    it('pauses, resumes, cancels and refuses wrong moves with 409 INVALID_TRANSITION', async () => {
      const t = await tenant({ concurrent_campaigns_limit: 10 });
      const id = (await request(api.app).post('/v1/campaigns').set(t.auth).send(body(3))).body.data.id;
      const early = await request(api.app).post(`/v1/campaigns/${id}/pause`).set(t.auth);
      expect(early.status).toBe(409);
      expect(early.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: 'pendente', allowed: ['processando'] } });
      await start(id);
      expect((await request(api.app).post(`/v1/campaigns/${id}/pause`).set(t.auth)).body).toEqual({ success: true, data: { status: 'paused' } });
      expect((await request(api.app).post(`/v1/campaigns/${id}/pause`).set(t.auth)).status).toBe(409);
      expect((await request(api.app).post(`/v1/campaigns/${id}/resume`).set(t.auth)).body).toEqual({ success: true, data: { status: 'processing', pending_requeued: 3 } });
      expect((await request(api.app).post(`/v1/campaigns/${id}/cancel`).set(t.auth)).body).toEqual({ success: true, data: { cancelled: 3 } });
      const again = await request(api.app).post(`/v1/campaigns/${id}/cancel`).set(t.auth);
      expect(again.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: 'concluido', allowed: ['pendente', 'processando', 'pausado'] } });
      const detail = await request(api.app).get(`/v1/campaigns/${id}`).set(t.auth);
      expect(detail.body.data).toMatchObject({ status: 'concluido', total_pulados: 3, progress: 100, cancelled_by_user: true });
      const retry = await request(api.app).post(`/v1/campaigns/${id}/retry`).set(t.auth).send({ all_failures: true });
      expect(retry.status).toBe(409);
      const bad = await request(api.app).post(`/v1/campaigns/${id}/retry`).set(t.auth).send({ detailIds: 'x' });
      expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    });
  });
});
