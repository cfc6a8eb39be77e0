import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';

let api: TestApi;
let companyId: string;
let auth: { Authorization: string };

beforeAll(async () => {
  api = await createTestApi();
  const company = await api.createCompany({ company_rpm: 100_000 });
  companyId = company.id;
  auth = { Authorization: `Bearer ${await api.createKey(company.id, { rpm: 100_000 })}` };
});
afterAll(() => api.close());

const eventsOf = async (company: string, event: string) =>
  api.database.db.selectFrom('domain_events').select(['data', 'event']).where('company_id', '=', company).where('event', '=', event).orderBy('seq').execute();

describe('reference data', () => {
  it('autocompletes CNAE activities by code prefix and accent-free words', async () => {
    const byCode = await request(api.app).get('/v1/leads/cnaes?q=6201-5&limit=5').set(auth);
    expect(byCode.status).toBe(200);
    expect(byCode.body.data[0]).toEqual({ code: '6201501', formatted: '6201-5/01', description: 'DESENVOLVIMENTO DE PROGRAMAS DE COMPUTADOR SOB ENCOMENDA' });
    const byWords = await request(api.app).get('/v1/leads/cnaes?q=padaria').set(auth);
    expect(byWords.body.data.map((c: { code: string }) => c.code)).toContain('4721102');
    const accents = await request(api.app).get('/v1/leads/cnaes?q=confeitaria%20padaria').set(auth);
    expect(accents.body.data.map((c: { code: string }) => c.code)).toContain('4721102');
    expect((await request(api.app).get('/v1/leads/cnaes?q=a').set(auth)).status).toBe(400);
    expect((await request(api.app).get('/v1/leads/cnaes?q=pad&limit=21').set(auth)).status).toBe(400);
  });

  it('autocompletes municipalities with their UF and time zone', async () => {
    const res = await request(api.app).get('/v1/leads/municipios?q=sao%20paulo&uf=SP&limit=3').set(auth);
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toEqual({ ibge_code: '3550308', name: 'São Paulo', uf: 'SP', timezone: 'America/Sao_Paulo' });
    const manaus = await request(api.app).get('/v1/leads/municipios?q=1302603').set(auth);
    expect(manaus.body.data[0]).toMatchObject({ name: 'Manaus', uf: 'AM', timezone: 'America/Manaus' });
    expect((await request(api.app).get('/v1/leads/municipios?limit=31').set(auth)).status).toBe(400);
  });
});

describe('lead searches', () => {
  it('queues a search (202 jobId), refuses unknown codes with 400 and reads the queued search', async () => {
    const bad = await request(api.app).post('/v1/leads/search').set(auth).send({ cnaes: ['0000000'], municipios: ['3550308'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.unknown).toEqual(['0000000']);
    expect((await request(api.app).post('/v1/leads/search').set(auth).send({ cnaes: ['4721102'] })).status).toBe(400);
    const res = await request(api.app).post('/v1/leads/search').set(auth).send({ cnaes: ['4721-1/02'], municipios: ['3550308'], limit: 20 });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ jobId: expect.any(String), status: 'queued' });
    const read = await request(api.app).get(`/v1/leads/search/${res.body.data.jobId}`).set(auth);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ status: 'queued', items: [], total: 0, source: 'sample' });
    // Another company's search is not found.
    const other = await api.createCompany();
    const otherAuth = { Authorization: `Bearer ${await api.createKey(other.id)}` };
    expect((await request(api.app).get(`/v1/leads/search/${res.body.data.jobId}`).set(otherAuth)).status).toBe(404);
    expect((await request(api.app).get('/v1/leads/search/not-a-uuid').set(auth)).status).toBe(404);
  });

  it('answers 402 INSUFFICIENT_CREDITS to a live key without lead credits, and 402 PLAN_LIMIT_REACHED past lead_searches_per_day', async () => {
    const company = await api.createCompany({ plan_code: 'trial' });
    const live = { Authorization: `Bearer ${await api.createKey(company.id, { mode: 'live' })}` };
    const body = { cnaes: ['4721102'], municipios: ['3550308'] };
    const refused = await request(api.app).post('/v1/leads/search').set(live).send(body);
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('INSUFFICIENT_CREDITS');
    await request(api.app).post(`/admin/v1/companies/${company.id}/payments`).set(api.adminAuth).send({ kind: 'lead_credits', units: 100, amount: 10, method: 'pix', external_ref: 'q-1' }).expect(201);
    expect((await request(api.app).post('/v1/leads/search').set(live).send(body)).status).toBe(202);
    expect((await request(api.app).post('/v1/leads/search').set(live).send(body)).status).toBe(202);
    const limits = await request(api.app).get('/v1/limits').set(live);
    expect(limits.body.data.quotas.lead_searches_per_day).toMatchObject({ limit: 2, used: 2, remaining: 0 });
    const third = await request(api.app).post('/v1/leads/search').set(live).send(body);
    expect(third.status).toBe(402);
    expect(third.body.error).toMatchObject({ code: 'PLAN_LIMIT_REACHED', details: { quota: 'lead_searches_per_day', limit: 2, used: 2 } });
    // Test keys are never refused by a quota.
    const test = { Authorization: `Bearer ${await api.createKey(company.id)}` };
    expect((await request(api.app).post('/v1/leads/search').set(test).send(body)).status).toBe(202);
  });
});

describe('save-to-crm', () => {
  it('upserts contacts by phone, fill-only, with tags, skipping leads without a phone; lead.saved_to_crm', async () => {
    const company = await api.createCompany();
    const key = { Authorization: `Bearer ${await api.createKey(company.id)}` };
    const tag = (await request(api.app).post('/v1/tags').set(key).send({ name: 'Leads' })).body.data;
    await request(api.app).post('/v1/contacts').set(key).send({ phone: '+5511987001111', name: 'Nome antigo' }).expect(201);
    const res = await request(api.app)
      .post('/v1/leads/save-to-crm')
      .set(key)
      .send({
        items: [
          { cnpj: '11222333000181', name: 'Nome novo', phone: '+5511987001111', email: 'contato@a.com.br' },
          { cnpj: '11444777000161', name: 'Padaria', phone: '+5511987002222' },
          { cnpj: '11444777000162', name: 'Sem telefone' },
          { cnpj: '11444777000163', name: 'Repetido', phone: '+5511987002222' },
        ],
        tag_ids: [tag.id],
      });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 1, updated: 1, skipped: 2 });
    expect(res.body.data.results.map((r: { status: string; reason: string | null }) => [r.status, r.reason])).toEqual([
      ['updated', null],
      ['created', null],
      ['skipped', 'no_phone'],
      ['skipped', 'duplicate'],
    ]);
    const existing = (await request(api.app).get('/v1/contacts?phone=%2B5511987001111').set(key)).body.data.items[0];
    expect(existing).toMatchObject({ name: 'Nome antigo', email: 'contato@a.com.br', tag_ids: [tag.id] });
    const [event] = await eventsOf(company.id, 'lead.saved_to_crm');
    expect(event!.data).toMatchObject({ created: 1, updated: 1, skipped: 2, jobId: null });
    expect((await request(api.app).post('/v1/leads/save-to-crm').set(key).send({ items: [] })).status).toBe(400);
    expect((await request(api.app).post('/v1/leads/save-to-crm').set(key).send({ items: Array.from({ length: 201 }, (_, i) => ({ cnpj: String(i) })) })).status).toBe(400);
  });
});

describe('validate-channel', () => {
  it("checks numbers through the box's connected session (simulator for test keys), 404 without one", async () => {
    const company = await api.createCompany();
    const key = { Authorization: `Bearer ${await api.createKey(company.id)}` };
    const setor = await api.createSetor(company.id);
    const body = { phones: ['+5511987654321', '11987650001', 'telefone'], setor_id: setor.id };
    expect((await request(api.app).post('/v1/leads/validate-channel').set(key).send(body)).status).toBe(404);
    await api.connectSetor(company.id, setor.id);
    const res = await request(api.app).post('/v1/leads/validate-channel').set(key).send(body);
    expect(res.status).toBe(200);
    expect(res.body.data.results).toEqual([
      { input: '+5511987654321', phone: '+5511987654321', has_channel: true, reason: 'checked' },
      { input: '11987650001', phone: '+5511987650001', has_channel: false, reason: 'checked' },
      { input: 'telefone', phone: null, has_channel: null, reason: 'invalid_number' },
    ]);
    // Another company's setor is not found.
    expect((await request(api.app).post('/v1/leads/validate-channel').set(auth).send(body)).status).toBe(404);
    expect((await request(api.app).post('/v1/leads/validate-channel').set(key).send({ phones: [], setor_id: setor.id })).status).toBe(400);
  });

  it('caches live answers for 7 days per box', async () => {
    const { company, auth: live, setor } = await api.createTenant({ key: { mode: 'live' } });
    const body = { phones: ['+5511987654321'], setor_id: setor.id };
    expect((await request(api.app).post('/v1/leads/validate-channel').set(live).send(body)).body.data.results[0]).toMatchObject({ has_channel: true, reason: 'checked' });
    expect((await request(api.app).post('/v1/leads/validate-channel').set(live).send(body)).body.data.results[0]).toMatchObject({ has_channel: true, reason: 'cached' });
    await api.database.db.updateTable('lead_channel_checks').set({ checked_at: new Date(Date.now() - 8 * 86_400_000) }).where('company_id', '=', company.id).execute();
    expect((await request(api.app).post('/v1/leads/validate-channel').set(live).send(body)).body.data.results[0]).toMatchObject({ reason: 'checked' });
  });
});

describe('validate-email-mx', () => {
  it('answers the test-key DNS: no domain, null MX, implicit MX, timeout, deliverable; bad syntax', async () => {
    const res = await request(api.app)
      .post('/v1/leads/validate-email-mx')
      .set(auth)
      .send({ emails: ['a@x.invalid', 'b@nullmx.test', 'c@nomx.test', 'd@timeout.test', 'e@example.com.br', 'not-an-email'] });
    expect(res.status).toBe(200);
    expect(res.body.data.results.map((r: { status: string; reason: string; implicit_mx: boolean }) => [r.status, r.reason, r.implicit_mx])).toEqual([
      ['undeliverable', 'no_domain', false],
      ['undeliverable', 'null_mx', false],
      ['deliverable', 'implicit_mx', true],
      ['unknown', 'timeout', false],
      ['deliverable', 'mx', false],
      ['undeliverable', 'invalid_syntax', false],
    ]);
    expect((await request(api.app).post('/v1/leads/validate-email-mx').set(auth).send({ emails: [] })).status).toBe(400);
  });
});

describe('billing', () => {
  it('reads balances, thresholds and low[]; payments credit once per external reference with payment.received', async () => {
    const company = await api.createCompany({ modality: 'avulso', avulso_balance: 120 });
    const key = { Authorization: `Bearer ${await api.createKey(company.id, { scopes: ['credits:read'] })}` };
    const before = await request(api.app).get('/v1/billing/balance').set(key);
    expect(before.body.data).toEqual({
      modality: 'avulso',
      unlimited: false,
      balances: { messages: 120, ai_credits: 0, lead_credits: 0 },
      thresholds: { messages: 100, ai_credits: null, lead_credits: 50 },
      low: ['ai_credits', 'lead_credits'],
    });
    const payment = { kind: 'lead_credits', units: 60, amount: 29.9, method: 'pix', external_ref: 'pix-1' };
    const first = await request(api.app).post(`/admin/v1/companies/${company.id}/payments`).set(api.adminAuth).send(payment);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ kind: 'lead_credits', units: 60, amount: 29.9, balance_after: 60 });
    const replay = await request(api.app).post(`/admin/v1/companies/${company.id}/payments`).set(api.adminAuth).send(payment);
    expect(replay.status).toBe(200);
    expect(replay.body.data.id).toBe(first.body.data.id);
    const after = await request(api.app).get('/v1/billing/balance').set(key);
    expect(after.body.data.balances.lead_credits).toBe(60);
    expect(after.body.data.low).toEqual(['ai_credits']);
    const received = await eventsOf(company.id, 'payment.received');
    expect(received).toHaveLength(1);
    expect(received[0]!.data).toMatchObject({ paymentId: first.body.data.id, kind: 'lead_credits', units: 60, amount: 29.9, method: 'pix', externalRef: 'pix-1', balanceAfter: 60 });
    const list = await request(api.app).get(`/admin/v1/companies/${company.id}/payments`).set(api.adminAuth);
    expect(list.body.data.items).toHaveLength(1);
    const thresholds = await request(api.app).put(`/admin/v1/companies/${company.id}/low-balance-thresholds`).set(api.adminAuth).send({ lead_credits: 70, messages: null });
    expect(thresholds.body.data).toEqual({ messages: 100, ai_credits: null, lead_credits: 70 });
    expect((await request(api.app).get('/v1/billing/balance').set(key)).body.data.low).toEqual(['ai_credits', 'lead_credits']);
    expect((await request(api.app).post(`/admin/v1/companies/${crypto.randomUUID()}/payments`).set(api.adminAuth).send({ ...payment, external_ref: 'x' })).status).toBe(404);
    expect((await request(api.app).post(`/admin/v1/companies/${company.id}/payments`).set(api.adminAuth).send({ ...payment, amount: 1.234, external_ref: 'y' })).status).toBe(400);
    expect((await request(api.app).post(`/admin/v1/companies/${company.id}/payments`).set(auth).send(payment)).status).toBe(401);
  });

  it('concurrent sends never take the balance below zero and emit billing.low_balance once per crossing, re-armed by a payment', async () => {
    const { company, auth: key } = await api.createTenant({ settings: { modality: 'avulso', avulso_balance: 105, company_rpm: 100_000 }, key: { mode: 'live', rpm: 100_000 } });
    const sends = await Promise.all(
      Array.from({ length: 20 }, (_, i) => request(api.app).post('/v1/messages').set(key).send({ phone: `+55119876${String(50100 + i)}`, message: { text: 'Oi' } })),
    );
    expect(sends.filter((r) => r.status === 201)).toHaveLength(20);
    const balance = (await request(api.app).get('/v1/billing/balance').set(key)).body.data;
    expect(balance.balances.messages).toBe(85);
    expect(balance.low).toEqual(['messages', 'ai_credits', 'lead_credits']);
    const low = await eventsOf(company.id, 'billing.low_balance');
    expect(low).toHaveLength(1);
    expect(low[0]!.data).toEqual({ kind: 'messages', balance: 100, threshold: 100, level: 'low', modality: 'avulso' });
    // The exhausted level: a balance of 2 and 5 concurrent sends: 2 go out, 3 are refused, one alert.
    await api.database.db.updateTable('companies').set({ avulso_balance: 2 }).where('id', '=', company.id).execute();
    const more = await Promise.all(
      Array.from({ length: 5 }, (_, i) => request(api.app).post('/v1/messages').set(key).send({ phone: `+55119876${String(50200 + i)}`, message: { text: 'Oi' } })),
    );
    expect(more.filter((r) => r.status === 201)).toHaveLength(2);
    expect(more.filter((r) => r.status === 402)).toHaveLength(3);
    const row = await api.database.db.selectFrom('companies').select('avulso_balance').where('id', '=', company.id).executeTakeFirstOrThrow();
    expect(row.avulso_balance).toBe(0);
    expect((await eventsOf(company.id, 'billing.low_balance')).map((e) => (e.data as { level: string }).level)).toEqual(['low', 'exhausted']);
    // A payment re-arms: the next crossing alerts again.
    await request(api.app).post(`/admin/v1/companies/${company.id}/payments`).set(api.adminAuth).send({ kind: 'messages', units: 101, amount: 50, method: 'manual', external_ref: 'm-1' }).expect(201);
    await request(api.app).post('/v1/messages').set(key).send({ phone: '+5511987650300', message: { text: 'Oi' } }).expect(201);
    expect((await eventsOf(company.id, 'billing.low_balance')).map((e) => (e.data as { level: string }).level)).toEqual(['low', 'exhausted', 'low']);
  });

  it('never alerts unlimited companies or test keys', async () => {
    const { company, auth: test } = await api.createTenant({ settings: { modality: 'avulso', avulso_balance: 101 } });
    await request(api.app).post('/v1/messages').set(test).send({ phone: '+5511987650400', message: { text: 'Oi' } });
    expect(await eventsOf(company.id, 'billing.low_balance')).toHaveLength(0);
    const { company: unlimited, auth: live } = await api.createTenant({ settings: { modality: 'avulso', avulso_balance: 101, unlimited: true }, key: { mode: 'live' } });
    await request(api.app).post('/v1/messages').set(live).send({ phone: '+5511987650401', message: { text: 'Oi' } }).expect(201);
    expect(await eventsOf(unlimited.id, 'billing.low_balance')).toHaveLength(0);
    expect((await request(api.app).get('/v1/billing/balance').set(live)).body.data).toMatchObject({ unlimited: true, low: [], balances: { messages: -1, lead_credits: -1 } });
  });
});

describe('reports', () => {
  it('summarises the period from SQL aggregates and checks the period', async () => {
    const { auth: key } = await api.createTenant({ settings: { company_rpm: 100_000 }, key: { mode: 'live', rpm: 100_000 } });
    await request(api.app).post('/v1/messages').set(key).send({ phone: '+5511987650500', message: { text: 'Oi' } }).expect(201);
    await request(api.app).post('/v1/messages').set(key).send({ phone: '+5511987650501', message: { text: 'Oi' } }).expect(201);
    const res = await request(api.app).get('/v1/reports/summary').set(key);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      messages: { sent: 2, failed: 0, received: 0 },
      campaigns: { created: 0 },
      csat: { average: null, responses: 0 },
      appointments: { total: 0 },
      crm: { won: 0, lost: 0, won_value: 0 },
    });
    const narrowed = await request(api.app).get(`/v1/reports/summary?setor_id=${crypto.randomUUID()}`).set(key);
    expect(narrowed.body.data.messages.sent).toBe(0);
    const tooLong = await request(api.app).get('/v1/reports/summary?from=2025-01-01T00:00:00Z&to=2026-06-01T00:00:00Z').set(key);
    expect(tooLong.status).toBe(400);
    expect((await request(api.app).get('/v1/reports/summary?from=2026-01-01').set(key)).status).toBe(400);
    const other = await api.createCompany();
    const otherKey = { Authorization: `Bearer ${await api.createKey(other.id)}` };
    expect((await request(api.app).get('/v1/reports/summary').set(otherKey)).body.data.messages.sent).toBe(0);
  });

  it('counts the CSAT ratings given in the period, by score', async () => {
    const { auth: key, setor } = await api.createTenant({ settings: { company_rpm: 100_000 }, key: { mode: 'live', rpm: 100_000 } });
    for (const [i, score] of [5, 4, 5].entries()) {
      const phone = `+551198765060${i}`;
      await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setor.id, from: phone, text: 'Oi' }).expect(201);
      const ticket = (await request(api.app).get(`/v1/tickets?q=${phone.slice(-8)}`).set(key)).body.data.items[0];
      await request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(key).send({ status: 'closed', send_closing_message: false, request_rating: false }).expect(200);
      await request(api.app).post(`/v1/tickets/${ticket.id}/rating`).set(key).send({ score }).expect(200);
    }
    const csat = (await request(api.app).get('/v1/reports/summary').set(key)).body.data.csat;
    expect(csat).toEqual({ average: 4.67, responses: 3, distribution: { '1': 0, '2': 0, '3': 0, '4': 1, '5': 2 } });
    expect((await request(api.app).get(`/v1/reports/summary?setor_id=${crypto.randomUUID()}`).set(key)).body.data.csat.responses).toBe(0);
  });
});

describe('scopes', () => {
  it('asks leads:read, leads:write, reports:read and credits:read', async () => {
    const narrow = { Authorization: `Bearer ${await api.createKey(companyId, { scopes: ['leads:read'] })}` };
    expect((await request(api.app).get('/v1/leads/cnaes?q=padaria').set(narrow)).status).toBe(200);
    expect((await request(api.app).post('/v1/leads/validate-email-mx').set(narrow).send({ emails: ['a@b.com'] })).status).toBe(403);
    expect((await request(api.app).get('/v1/reports/summary').set(narrow)).status).toBe(403);
    expect((await request(api.app).get('/v1/billing/balance').set(narrow)).status).toBe(403);
  });
});
