import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

describe('admin API', () => {
  it('creates a company with every effective setting and the plan defaults', async () => {
    const res = await request(api.app).post('/admin/v1/companies').set(api.adminAuth).send({ name: 'Trial Co', plan_code: 'trial' });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      name: 'Trial Co',
      plan_code: 'trial',
      modality: 'mensal',
      daily_limit: 500,
      concurrent_campaigns_limit: 1,
      company_rpm: 60,
      safe_hours: { start: 8, end: 21 },
      bulk_messaging_enabled: true,
      multi_number_enabled: true,
      unlimited: false,
      avulso_balance: 0,
    });
    const read = await request(api.app).get(`/admin/v1/companies/${res.body.data.id}`).set(api.adminAuth);
    expect(read.body.data).toEqual(res.body.data);
  });

  it('patches settings and validates them', async () => {
    const company = await api.createCompany();
    const res = await request(api.app)
      .patch(`/admin/v1/companies/${company.id}`)
      .set(api.adminAuth)
      .send({ modality: 'avulso', avulso_balance: 10, daily_limit: 50, safe_hours: { start: 9, end: 18 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ modality: 'avulso', avulso_balance: 10, daily_limit: 50, safe_hours: { start: 9, end: 18 } });
    const bad = await request(api.app).patch(`/admin/v1/companies/${company.id}`).set(api.adminAuth).send({ safe_hours: { start: 20, end: 10 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('rejects a missing or wrong admin token with 401', async () => {
    expect((await request(api.app).post('/admin/v1/companies').send({ name: 'x' })).status).toBe(401);
    const wrong = await request(api.app).post('/admin/v1/companies').set('Authorization', 'Bearer nope').send({ name: 'x' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
  });

  it('answers 404 for unknown companies and bad ids', async () => {
    const missing = await request(api.app).get('/admin/v1/companies/00000000-0000-4000-8000-000000000000').set(api.adminAuth);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const bad = await request(api.app).get('/admin/v1/companies/not-a-uuid').set(api.adminAuth);
    expect(bad.status).toBe(400);
  });

  it('names the path parameter of a malformed admin id (it is not in the body)', async () => {
    const bad = await request(api.app).delete('/admin/v1/api-keys/not-a-uuid').set(api.adminAuth);
    expect([bad.status, bad.body.error.code, bad.body.error.message]).toEqual([400, 'BAD_REQUEST', 'id must match format "uuid"']);
    expect(bad.body.error.details.errors).toEqual([{ field: 'id', message: 'must match format "uuid"' }]);
  });

  it('issues keys shown once, lists them without the key, and creates boxes and teams', async () => {
    const company = await api.createCompany();
    const created = await request(api.app)
      .post(`/admin/v1/companies/${company.id}/api-keys`)
      .set(api.adminAuth)
      .send({ name: 'server', scopes: ['campaigns:read', 'credits:read'], mode: 'live', rpm: 120 });
    expect(created.status).toBe(201);
    expect(created.body.data.key).toMatch(/^ak_live_[0-9A-Za-z]{32}$/);
    expect(created.body.data).toMatchObject({ name: 'server', scopes: ['campaigns:read', 'credits:read'], mode: 'live', rpm: 120 });
    const list = await request(api.app).get(`/admin/v1/companies/${company.id}/api-keys`).set(api.adminAuth);
    expect(list.body.data).toMatchObject({ total: 1, page: 1, totalPages: 1 });
    expect(JSON.stringify(list.body)).not.toContain(created.body.data.key);

    const badScope = await request(api.app)
      .post(`/admin/v1/companies/${company.id}/api-keys`)
      .set(api.adminAuth)
      .send({ name: 'x', scopes: ['nope:read'], mode: 'live' });
    expect(badScope.status).toBe(400);

    const setor = await api.createSetor(company.id, { nome: 'Vendas' });
    const team = await request(api.app)
      .post(`/admin/v1/companies/${company.id}/teams`)
      .set(api.adminAuth)
      .send({ nome: 'Time', setor_ids: [setor.id] });
    expect(team.status).toBe(201);
    expect(team.body.data.setor_ids).toEqual([setor.id]);
    const patched = await request(api.app).patch(`/admin/v1/setores/${setor.id}`).set(api.adminAuth).send({ warming_daily_limit: 80 });
    expect(patched.body.data.warming_daily_limit_override).toBe(80);
    const official = await request(api.app)
      .post(`/admin/v1/companies/${company.id}/setores`)
      .set(api.adminAuth)
      .send({ nome: 'Oficial', channel_type: 'official' });
    expect(official.status).toBe(400);
  });
});

describe('/v1 authentication', () => {
  it('answers 401 without a key, with a malformed key and with an unknown key', async () => {
    for (const header of [undefined, 'Bearer', 'Bearer abc', `Bearer ak_test_${'x'.repeat(32)}`, 'Basic Zm9vOmJhcg==']) {
      const req = request(api.app).get('/v1/limits');
      const res = await (header ? req.set('Authorization', header) : req);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('answers 403 FORBIDDEN naming the missing scope', async () => {
    const company = await api.createCompany();
    const key = await api.createKey(company.id, { scopes: ['campaigns:read'] });
    const res = await request(api.app).get('/v1/limits').set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', details: { required_scope: 'credits:read' } });
    expect(res.body.error.message).toContain('credits:read');
  });

  it('revokes a key at once and keeps a rotated key for its grace period only', async () => {
    const company = await api.createCompany();
    const created = await request(api.app)
      .post(`/admin/v1/companies/${company.id}/api-keys`)
      .set(api.adminAuth)
      .send({ name: 'k', scopes: ['*'], mode: 'test' });
    const { id, key } = created.body.data;
    const call = (k: string) => request(api.app).get('/v1/limits').set('Authorization', `Bearer ${k}`);
    expect((await call(key)).status).toBe(200);

    const rotated = await request(api.app).post(`/admin/v1/api-keys/${id}/rotate`).set(api.adminAuth).send({ grace_seconds: 3600 });
    expect(rotated.status).toBe(201);
    expect(rotated.body.data).toMatchObject({ name: 'k', scopes: ['*'], mode: 'test' });
    expect((await call(key)).status).toBe(200);
    expect((await call(rotated.body.data.key)).status).toBe(200);

    const immediate = await request(api.app).post(`/admin/v1/api-keys/${rotated.body.data.id}/rotate`).set(api.adminAuth).send({ grace_seconds: 0 });
    expect((await call(rotated.body.data.key)).status).toBe(401);
    expect((await call(immediate.body.data.key)).status).toBe(200);

    const revoked = await request(api.app).delete(`/admin/v1/api-keys/${immediate.body.data.id}`).set(api.adminAuth);
    expect(revoked.body).toEqual({ success: true, data: { revoked: true, id: immediate.body.data.id } });
    expect((await call(immediate.body.data.key)).status).toBe(401);
  });
});

describe('/v1 errors', () => {
  it('maps malformed JSON, wrong content type, unknown routes and oversized bodies to the envelope', async () => {
    const company = await api.createCompany();
    const key = await api.createKey(company.id);
    const auth = { Authorization: `Bearer ${key}` };
    const malformed = await request(api.app).post('/v1/campaigns').set(auth).set('Content-Type', 'application/json').send('{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('BAD_REQUEST');
    const text = await request(api.app).post('/v1/campaigns').set(auth).set('Content-Type', 'text/plain').send('hello');
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const unknown = await request(api.app).get('/v1/nothing-here').set(auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
    // The path as the client sent it, mount point included.
    expect(unknown.body.error.message).toBe('Route GET /v1/nothing-here not found');
    const huge = await request(api.app)
      .post('/v1/campaigns')
      .set(auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ blob: 'x'.repeat(6 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const outside = await request(api.app).get('/elsewhere');
    expect(outside.status).toBe(404);
    expect(outside.body.success).toBe(false);
  });

  it('carries the rate-limit headers on a malformed or unsupported body, which counts; without a key such a body is 401 unread', async () => {
    const company = await api.createCompany();
    const auth = { Authorization: `Bearer ${await api.createKey(company.id, { rpm: 60 })}` };
    const malformed = await request(api.app).post('/v1/contacts').set(auth).set('Content-Type', 'application/json').send('{"phone": ');
    const text = await request(api.app).post('/v1/contacts').set(auth).set('Content-Type', 'text/plain').send('hello');
    expect([malformed.status, malformed.headers['x-ratelimit-limit'], malformed.headers['x-ratelimit-remaining']]).toEqual([400, '60', '59']);
    expect([text.status, text.headers['x-ratelimit-remaining'], text.headers['x-ratelimit-reset']]).toEqual([415, '58', expect.stringMatching(/^\d+$/)]);
    const anonymous = await request(api.app).post('/v1/contacts').set('Content-Type', 'application/json').send('{"phone": ');
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('answers health and readiness probes', async () => {
    expect((await request(api.app).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(api.app).get('/readyz')).status).toBe(200);
  });
});

describe('GET /v1/limits', () => {
  const limitsOf = async (settings: Record<string, unknown>, keyOptions: { rpm?: number } = {}) => {
    const company = await api.createCompany(settings);
    const key = await api.createKey(company.id, { scopes: ['credits:read'], ...keyOptions });
    const res = await request(api.app).get('/v1/limits').set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(200);
    return res.body.data;
  };

  it('reports a monthly pro company', async () => {
    expect(await limitsOf({ plan_code: 'pro' }, { rpm: 100 })).toEqual({
      bulk_messaging_enabled: true,
      modality: 'mensal',
      plan_code: 'pro',
      expires_at: null,
      unlimited: false,
      avulso_balance: 0,
      daily: { limit: 5000, sent_today: 0, remaining: 5000 },
      concurrent_campaigns: { limit: 3, active: 0, remaining: 3 },
      max_recipients_per_campaign: 10000,
      rate_limit: { api_key_rpm: 100, company_rpm: 60, effective_rpm: 60 },
      safe_hours: { start: 8, end: 21 },
      timezone: 'America/Sao_Paulo',
      // business.md §0: GET /v1/limits adds the plan quotas (the pro plan's: "others").
      quotas: {
        appointments_per_month: { limit: 5000, used: 0, remaining: 5000, resets_at: expect.any(String) },
        scheduled_messages_pending: { limit: 2000, used: 0, remaining: 2000, resets_at: null },
        contracts_per_month: { limit: 500, used: 0, remaining: 500, resets_at: expect.any(String) },
        lead_searches_per_day: { limit: 50, used: 0, remaining: 50, resets_at: expect.any(String) },
      },
    });
  });

  it('reports avulso balances, unlimited companies and plan limits', async () => {
    const avulso = await limitsOf({ modality: 'avulso', avulso_balance: 42, expires_at: '2030-01-01T00:00:00.000Z', plan_code: 'basic' });
    expect(avulso).toMatchObject({ modality: 'avulso', avulso_balance: 42, expires_at: '2030-01-01T00:00:00.000Z' });
    expect(avulso.daily.limit).toBe(500);
    expect(avulso.concurrent_campaigns.limit).toBe(1);
    const unlimited = await limitsOf({ modality: 'avulso', avulso_balance: 42, unlimited: true });
    expect(unlimited).toMatchObject({ unlimited: true, avulso_balance: -1 });
    const inactive = await limitsOf({ modality: 'inativo', company_rpm: 30, daily_limit: 7, concurrent_campaigns_limit: 9 });
    expect(inactive).toMatchObject({
      modality: 'inativo',
      daily: { limit: 7 },
      concurrent_campaigns: { limit: 9 },
      rate_limit: { api_key_rpm: 60, company_rpm: 30, effective_rpm: 30 },
    });
  });
});
