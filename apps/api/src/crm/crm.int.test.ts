import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { TEST_ADMIN_TOKEN, createTestApi, type TestApi } from '../testing/test-api.js';

describe('CRM: /v1/crm and the operator funnel routes', () => {
  let api: TestApi;
  let companyId: string;
  let key: string;
  let readOnly: string;
  let otherKey: string;
  const as = (k: string) => ({ Authorization: `Bearer ${k}` });
  const admin = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

  const events = async (name: string, opportunityId: string) =>
    (await api.database.db.selectFrom('domain_events').selectAll().where('event', '=', name).where('company_id', '=', companyId).orderBy('seq').execute()).filter(
      (e) => (e.data as { opportunityId?: string }).opportunityId === opportunityId,
    );

  beforeAll(async () => {
    api = await createTestApi();
    companyId = (await api.createCompany({ company_rpm: 100_000 })).id;
    key = await api.createKey(companyId, { scopes: ['crm:read', 'crm:write'], rpm: 100_000 });
    readOnly = await api.createKey(companyId, { scopes: ['crm:read'], rpm: 100_000 });
    const other = (await api.createCompany({ company_rpm: 100_000 })).id;
    otherKey = await api.createKey(other, { scopes: ['crm:read', 'crm:write'], rpm: 100_000 });
  });
  afterAll(() => api.close());

  const stages = async (k = key) => (await request(api.app).get('/v1/crm/stages').set(as(k)).expect(200)).body.data as { id: string; name: string; is_won: boolean; is_lost: boolean }[];

  it('seeds every company with the default funnel, by position', async () => {
    const list = await stages();
    expect(list.map((s) => s.name)).toEqual(['Novo', 'Qualificado', 'Proposta', 'Negociação', 'Ganho', 'Perdido']);
    expect(list[0]).toMatchObject({ position: 1, is_won: false, is_lost: false, win_probability: 10, color: expect.stringMatching(/^#/) });
    expect(list.find((s) => s.is_won)).toMatchObject({ name: 'Ganho', win_probability: 100 });
    const others = await stages(otherKey);
    expect(others.map((s) => s.id).filter((id) => list.some((s) => s.id === id))).toEqual([]);
  });

  it('keeps the catalogue unique by name and SKU (409 naming the field) and lists it', async () => {
    const created = await request(api.app).post('/v1/crm/products').set(as(key)).send({ name: 'Site', price: 1500.5, sku: 'SITE-1', unit: 'un' }).expect(201);
    expect(created.body.data).toMatchObject({ name: 'Site', price: 1500.5, sku: 'SITE-1', unit: 'un', active: true });
    const byName = await request(api.app).post('/v1/crm/products').set(as(key)).send({ name: 'site', price: 1 }).expect(409);
    expect(byName.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'name' } });
    const bySku = await request(api.app).post('/v1/crm/products').set(as(key)).send({ name: 'Logo', price: 1, sku: 'site-1' }).expect(409);
    expect(bySku.body.error.details).toEqual({ field: 'sku' });
    await request(api.app).post('/v1/crm/products').set(as(key)).send({ name: 'Logo', price: 1.234 }).expect(400);
    await request(api.app).post('/v1/crm/products').set(as(readOnly)).send({ name: 'Logo', price: 1 }).expect(403);
    await request(api.app).post('/v1/crm/products').set(as(otherKey)).send({ name: 'Site', price: 1, sku: 'SITE-1' }).expect(201);
    const list = await request(api.app).get('/v1/crm/products?q=site').set(as(key)).expect(200);
    expect(list.body.data.items.map((p: { name: string }) => p.name)).toEqual(['Site']);
  });

  it('creates an opportunity with products (value = products_total), idempotently, with opportunity.created', async () => {
    const product = (await request(api.app).post('/v1/crm/products').set(as(key)).send({ name: 'Hospedagem', price: 100 }).expect(201)).body.data;
    const body = {
      title: 'Loja virtual',
      phone: '+5511987650101',
      name: 'Bia',
      products: [
        { product_id: product.id, quantity: 3 },
        { product_id: product.id, quantity: 1, unit_price: 50, discount_percent: 10 },
      ],
      expected_close_date: '2026-12-31',
    };
    const first = await request(api.app).post('/v1/crm/opportunities').set(as(key)).set('Idempotency-Key', 'opp-1').set('x-actor-user-id', 'user-7').send(body).expect(201);
    const o = first.body.data;
    expect(o).toMatchObject({
      title: 'Loja virtual',
      value: 345,
      products_total: 345,
      status: 'open',
      stage: { name: 'Novo' },
      win_probability: 10,
      client: { name: 'Bia', phone: '+5511987650101' },
      expected_close_date: '2026-12-31',
      products: [
        { product_id: product.id, name: 'Hospedagem', quantity: 3, unit_price: 100, discount_percent: 0, total: 300 },
        { product_id: product.id, quantity: 1, unit_price: 50, discount_percent: 10, total: 45 },
      ],
    });
    expect(o.history).toEqual([expect.objectContaining({ kind: 'created', actor: { user_id: 'user-7', source: 'api' } })]);
    const replay = await request(api.app).post('/v1/crm/opportunities').set(as(key)).set('Idempotency-Key', 'opp-1').send(body).expect(201);
    expect(replay.body.data.id).toBe(o.id);
    expect(replay.body.meta).toEqual({ idempotent_replay: true });
    await request(api.app).post('/v1/crm/opportunities').set(as(key)).set('Idempotency-Key', 'opp-1').send({ ...body, title: 'x' }).expect(422);
    const created = await events('opportunity.created', o.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.data).toMatchObject({ opportunityId: o.id, title: 'Loja virtual', value: 345, status: 'open', clientId: o.client.id, ticketId: null });
    await request(api.app).get(`/v1/crm/opportunities/${o.id}`).set(as(otherKey)).expect(404);
    await request(api.app).post('/v1/crm/opportunities').set(as(key)).send({ title: 'Sem cliente' }).expect(400);
    await request(api.app).post('/v1/crm/opportunities').set(as(key)).send({ title: 'X', phone: '+5511987650101', stage_id: '00000000-0000-4000-8000-000000000000' }).expect(404);
    await request(api.app).post('/v1/crm/opportunities').set(as(key)).send({ title: 'X', client_id: '00000000-0000-4000-8000-000000000000' }).expect(404);
  });

  it('edits with a history of every change; stage_id in a PATCH is a 400', async () => {
    const o = (await request(api.app).post('/v1/crm/opportunities').set(as(key)).send({ title: 'App', phone: '+5511987650102', value: 1000 }).expect(201)).body.data;
    const patched = await request(api.app)
      .patch(`/v1/crm/opportunities/${o.id}`)
      .set(as(key))
      .set('x-actor-user-id', 'user-9')
      .send({ title: 'App mobile', value: 1200.5, description: 'iOS e Android' })
      .expect(200);
    expect(patched.body.data).toMatchObject({ title: 'App mobile', value: 1200.5, description: 'iOS e Android' });
    expect(patched.body.data.history[0]).toMatchObject({
      kind: 'updated',
      actor: { user_id: 'user-9', source: 'api' },
      changes: { title: { from: 'App', to: 'App mobile' }, value: { from: 1000, to: 1200.5 }, description: { from: null, to: 'iOS e Android' } },
    });
    const back = await request(api.app).patch(`/v1/crm/opportunities/${o.id}`).set(as(key)).send({ value: null }).expect(200);
    expect(back.body.data).toMatchObject({ value: 0, products_total: 0 });
    const list = await stages();
    await request(api.app).patch(`/v1/crm/opportunities/${o.id}`).set(as(key)).send({ stage_id: list[1]!.id }).expect(400);
    await request(api.app).patch(`/v1/crm/opportunities/${o.id}`).set(as(otherKey)).send({ title: 'x' }).expect(404);
  });

  it('moves across the funnel: won, same stage 409, reopened, lost with the reason; events for won and lost only', async () => {
    const list = await stages();
    const [novo, qualificado, , , ganho, perdido] = list;
    const o = (await request(api.app).post('/v1/crm/opportunities').set(as(key)).send({ title: 'Consultoria', phone: '+5511987650103', value: 800 }).expect(201)).body.data;
    const moved = await request(api.app).post(`/v1/crm/opportunities/${o.id}/move-stage`).set(as(key)).send({ stage_id: qualificado!.id }).expect(200);
    expect(moved.body.data).toMatchObject({ result: 'stage_changed', previous_stage_id: novo!.id, closed: false, opportunity: { stage: { id: qualificado!.id } } });
    const won = await request(api.app).post(`/v1/crm/opportunities/${o.id}/move-stage`).set(as(key)).send({ stage_id: ganho!.id }).expect(200);
    expect(won.body.data).toMatchObject({ result: 'won', previous_stage_id: qualificado!.id, closed: true, opportunity: { status: 'won', closed_at: expect.any(String) } });
    const again = await request(api.app).post(`/v1/crm/opportunities/${o.id}/move-stage`).set(as(key)).send({ stage_id: ganho!.id }).expect(409);
    expect(again.body.error.code).toBe('INVALID_TRANSITION');
    const reopened = await request(api.app).post(`/v1/crm/opportunities/${o.id}/move-stage`).set(as(key)).send({ stage_id: novo!.id }).expect(200);
    expect(reopened.body.data).toMatchObject({ result: 'stage_changed', closed: false, opportunity: { status: 'open', closed_at: null } });
    const lost = await request(api.app).post(`/v1/crm/opportunities/${o.id}/move-stage`).set(as(key)).send({ stage_id: perdido!.id, lost_reason: 'Sem orçamento' }).expect(200);
    expect(lost.body.data).toMatchObject({ result: 'lost', closed: true, opportunity: { status: 'lost', lost_reason: 'Sem orçamento' } });
    expect((await events('opportunity.won', o.id)).map((e) => e.data)).toEqual([
      expect.objectContaining({ opportunityId: o.id, value: 800, stageId: ganho!.id, previousStageId: qualificado!.id, closedAt: expect.any(String) }),
    ]);
    expect((await events('opportunity.lost', o.id)).map((e) => e.data)).toEqual([expect.objectContaining({ lostReason: 'Sem orçamento', previousStageId: novo!.id })]);
    const detail = await request(api.app).get(`/v1/crm/opportunities/${o.id}`).set(as(readOnly)).expect(200);
    expect(detail.body.data.history.map((h: { kind: string }) => h.kind)).toEqual(['lost', 'stage_changed', 'won', 'stage_changed', 'created']);
    expect(detail.body.data.history[0].changes).toMatchObject({ stage_id: { from: novo!.id, to: perdido!.id }, status: { from: 'open', to: 'lost' } });
    await request(api.app).post(`/v1/crm/opportunities/${o.id}/move-stage`).set(as(otherKey)).send({ stage_id: novo!.id }).expect(404);
    await request(api.app).post(`/v1/crm/opportunities/${o.id}/move-stage`).set(as(readOnly)).send({ stage_id: novo!.id }).expect(403);
  });

  it('creates in a final stage: opportunity.created then opportunity.won', async () => {
    const ganho = (await stages()).find((s) => s.is_won)!;
    const o = (await request(api.app).post('/v1/crm/opportunities').set(as(key)).send({ title: 'Fechado', phone: '+5511987650104', value: 10, stage_id: ganho.id }).expect(201)).body.data;
    expect(o).toMatchObject({ status: 'won', closed_at: expect.any(String) });
    expect(await events('opportunity.created', o.id)).toHaveLength(1);
    expect(await events('opportunity.won', o.id)).toHaveLength(1);
  });

  it('lists and counts with every filter, and deletes softly', async () => {
    const c = await api.createCompany({ company_rpm: 100_000 });
    const k = await api.createKey(c.id, { scopes: ['crm:read', 'crm:write'], rpm: 100_000 });
    const list = (await request(api.app).get('/v1/crm/stages').set(as(k)).expect(200)).body.data;
    const assignee = '11111111-1111-4111-8111-111111111111';
    const make = async (body: Record<string, unknown>) => (await request(api.app).post('/v1/crm/opportunities').set(as(k)).send({ phone: '+5511987650105', ...body }).expect(201)).body.data;
    const a = await make({ title: 'Alpha site', value: 100 });
    const b = await make({ title: 'Beta app', value: 250.25, assignee_id: assignee, stage_id: list[1].id });
    const w = await make({ title: 'Gamma', value: 1000, stage_id: list[4].id });
    const d = await make({ title: 'Delta', value: 7 });
    await request(api.app).delete(`/v1/crm/opportunities/${d.id}`).set(as(otherKey)).expect(404);
    expect((await request(api.app).delete(`/v1/crm/opportunities/${d.id}`).set(as(k)).expect(200)).body.data).toEqual({ deleted: true, id: d.id });
    await request(api.app).get(`/v1/crm/opportunities/${d.id}`).set(as(k)).expect(404);
    await request(api.app).delete(`/v1/crm/opportunities/${d.id}`).set(as(k)).expect(404);
    const ids = async (q: string) => (await request(api.app).get(`/v1/crm/opportunities${q}`).set(as(k)).expect(200)).body.data.items.map((o: { id: string }) => o.id);
    const count = async (q: string) => (await request(api.app).get(`/v1/crm/opportunities/count${q}`).set(as(k)).expect(200)).body.data;
    expect(await ids('')).toEqual([b.id, a.id]);
    expect(await count('')).toEqual({ count: 2, value_total: 350.25 });
    expect(await count('?include_closed=true')).toEqual({ count: 3, value_total: 1350.25 });
    expect(await count('?status=won')).toEqual({ count: 1, value_total: 1000 });
    expect(await ids('?include_closed=true')).toEqual([w.id, b.id, a.id]);
    expect(await ids(`?assignee_id=${assignee}`)).toEqual([b.id]);
    expect(await ids('?assignee_id=none')).toEqual([a.id]);
    expect(await ids(`?stage_id=${list[1].id}`)).toEqual([b.id]);
    expect(await ids(`?client_id=${a.client.id}`)).toEqual([b.id, a.id]);
    expect(await ids('?q=alpha')).toEqual([a.id]);
    const page = await request(api.app).get('/v1/crm/opportunities?limit=1&page=2').set(as(k)).expect(200);
    expect(page.body.data).toMatchObject({ total: 2, page: 2, limit: 1, totalPages: 2 });
    await request(api.app).get('/v1/crm/opportunities?limit=101').set(as(k)).expect(400);
    await request(api.app).get('/v1/crm/opportunities?assignee_id=someone').set(as(k)).expect(400);
    expect(await request(api.app).get('/v1/crm/opportunities/count').set(as(otherKey)).expect(200).then((r) => r.body.data.count)).toBeGreaterThanOrEqual(0);
  });

  it('lets the operator shape the funnel within its invariants; a used stage cannot be deleted', async () => {
    const c = await api.createCompany({ company_rpm: 100_000 });
    const k = await api.createKey(c.id, { scopes: ['crm:read', 'crm:write'], rpm: 100_000 });
    const before = (await request(api.app).get(`/admin/v1/companies/${c.id}/crm/stages`).set(admin).expect(200)).body.data;
    expect(before).toHaveLength(6);
    const demo = await request(api.app).post(`/admin/v1/companies/${c.id}/crm/stages`).set(admin).send({ name: 'Demonstração', position: 2, win_probability: 20 }).expect(201);
    expect(demo.body.data).toMatchObject({ name: 'Demonstração', position: 2, is_won: false });
    const after = (await request(api.app).get('/v1/crm/stages').set(as(k)).expect(200)).body.data;
    expect(after.map((s: { name: string }) => s.name)).toEqual(['Novo', 'Demonstração', 'Qualificado', 'Proposta', 'Negociação', 'Ganho', 'Perdido']);
    const secondWon = await request(api.app).post(`/admin/v1/companies/${c.id}/crm/stages`).set(admin).send({ name: 'Ganho 2', is_won: true }).expect(409);
    expect(secondWon.body.error.details).toEqual({ invariant: 'one_won_stage' });
    const perdido = after.find((s: { is_lost: boolean }) => s.is_lost);
    const lastLost = await request(api.app).patch(`/admin/v1/crm/stages/${perdido.id}`).set(admin).send({ is_lost: false }).expect(409);
    expect(lastLost.body.error.details).toEqual({ invariant: 'at_least_one_lost_stage' });
    const renamed = await request(api.app).patch(`/admin/v1/crm/stages/${demo.body.data.id}`).set(admin).send({ name: 'Demo', color: '#123456' }).expect(200);
    expect(renamed.body.data).toMatchObject({ name: 'Demo', color: '#123456', position: 2 });
    await request(api.app).post('/v1/crm/opportunities').set(as(k)).send({ title: 'Usa', phone: '+5511987650106', stage_id: demo.body.data.id }).expect(201);
    const used = await request(api.app).delete(`/admin/v1/crm/stages/${demo.body.data.id}`).set(admin).expect(409);
    expect(used.body.error.details).toEqual({ invariant: 'stage_in_use' });
    const proposta = after.find((s: { name: string }) => s.name === 'Proposta');
    expect((await request(api.app).delete(`/admin/v1/crm/stages/${proposta.id}`).set(admin).expect(200)).body.data).toEqual({ id: proposta.id, deleted: true });
    const final = (await request(api.app).get('/v1/crm/stages').set(as(k)).expect(200)).body.data;
    expect(final.map((s: { name: string; position: number }) => `${s.position}:${s.name}`)).toEqual(['1:Novo', '2:Demo', '3:Qualificado', '4:Negociação', '5:Ganho', '6:Perdido']);
    await request(api.app).delete('/admin/v1/crm/stages/00000000-0000-4000-8000-000000000000').set(admin).expect(404);
    await request(api.app).get('/admin/v1/companies/00000000-0000-4000-8000-000000000000/crm/stages').set(admin).expect(404);
    await request(api.app).post(`/admin/v1/companies/${c.id}/crm/stages`).set(as(k)).send({ name: 'x' }).expect(401);
  });

  it('links an opportunity created with ticket_id to that ticket; a ticket not of the company is 404 and nothing is created', async () => {
    const c = await api.createCompany({ company_rpm: 100_000 });
    const k = await api.createKey(c.id, { scopes: ['crm:read', 'crm:write', 'tickets:read'], rpm: 100_000 });
    const setor = await api.createSetor(c.id, { nome: 'Vendas' });
    const inbound = await request(api.app).post('/admin/v1/simulator/inbound').set(admin).send({ setor_id: setor.id, from: '+5511987650107', text: 'Oi' }).expect(201);
    const ticketId = inbound.body.data.ticket_id as string;
    expect(ticketId).toEqual(expect.any(String));
    const created = await request(api.app).post('/v1/crm/opportunities').set(as(k)).send({ title: 'Da conversa', client_id: inbound.body.data.client_id, ticket_id: ticketId, value: 10 }).expect(201);
    expect(created.body.data.ticket_id).toBe(ticketId);
    const detail = await request(api.app).get(`/v1/tickets/${ticketId}`).set(as(k)).expect(200);
    expect(detail.body.data.links.crm_opportunities).toEqual([expect.objectContaining({ id: created.body.data.id, title: 'Da conversa', value: 10 })]);
    const count = async (kk: string) => (await request(api.app).get('/v1/crm/opportunities/count').set(as(kk)).expect(200)).body.data.count as number;
    const before = await count(otherKey);
    const foreign = await request(api.app).post('/v1/crm/opportunities').set(as(otherKey)).send({ title: 'Alheia', phone: '+5511987650108', ticket_id: ticketId }).expect(404);
    expect(foreign.body.error).toMatchObject({ code: 'NOT_FOUND', details: { ticket_id: ticketId } });
    await request(api.app).post('/v1/crm/opportunities').set(as(k)).send({ title: 'Nenhum', phone: '+5511987650108', ticket_id: '00000000-0000-4000-8000-000000000000' }).expect(404);
    expect(await count(otherKey)).toBe(before);
  });
});
