import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { Scopes, type Scope } from '@carteiro/core';
import { createTestApi, type TestApi, type TestCompany } from '../testing/test-api.js';
import { sql } from 'kysely';

let api: TestApi;
let company: TestCompany;
let other: TestCompany;
let auth: { Authorization: string };
let otherAuth: { Authorization: string };
let setorId: string;

beforeAll(async () => {
  api = await createTestApi();
  company = await api.createCompany({ company_rpm: 100_000 });
  other = await api.createCompany({ company_rpm: 100_000 });
  auth = { Authorization: `Bearer ${await api.createKey(company.id, { rpm: 100_000 })}` };
  otherAuth = { Authorization: `Bearer ${await api.createKey(other.id, { rpm: 100_000 })}` };
  setorId = (await api.createSetor(company.id, { nome: 'Vendas' })).id;
});
afterAll(() => api.close());

const post = (path: string, body: unknown, headers = auth) => request(api.app).post(path).set(headers).send(body as object);
const get = (path: string, headers = auth) => request(api.app).get(path).set(headers);
const patch = (path: string, body: unknown, headers = auth) => request(api.app).patch(path).set(headers).send(body as object);
const del = (path: string, headers = auth) => request(api.app).delete(path).set(headers);
const field = (body: Record<string, unknown>, companyId = company.id) => request(api.app).post(`/admin/v1/companies/${companyId}/contact-fields`).set(api.adminAuth).send(body);

describe('custom-field definitions', () => {
  it('are created by the operator, listed to keys, keep their type and only gain options', async () => {
    const plano = await field({ key: 'plano', label: 'Plano', type: 'select', options: ['ouro', 'prata'] });
    expect(plano.status).toBe(201);
    expect(plano.body.data).toMatchObject({ key: 'plano', type: 'select', options: ['ouro', 'prata'] });
    expect((await field({ key: 'plano', label: 'Outro', type: 'text' })).status).toBe(409);
    expect((await field({ key: 'Plano', label: 'x', type: 'text' })).status).toBe(400);
    expect((await field({ key: 'cor', label: 'x', type: 'select' })).status).toBe(400);
    expect((await field({ key: 'x1', label: 'x', type: 'text' }, '00000000-0000-4000-8000-000000000009')).status).toBe(404);
    for (const [key, type] of [
      ['cpf', 'cpf'],
      ['cnpj', 'cnpj'],
      ['nascimento', 'date'],
      ['pontos', 'number'],
      ['vip', 'boolean'],
      ['site', 'url'],
    ] as const) {
      expect((await field({ key, label: key, type })).status).toBe(201);
    }
    const id = plano.body.data.id;
    const widened = await request(api.app).patch(`/admin/v1/contact-fields/${id}`).set(api.adminAuth).send({ options: ['ouro', 'prata', 'bronze'], label: 'Plano atual' });
    expect(widened.status).toBe(200);
    expect(widened.body.data.options).toEqual(['ouro', 'prata', 'bronze']);
    const narrowed = await request(api.app).patch(`/admin/v1/contact-fields/${id}`).set(api.adminAuth).send({ options: ['ouro'] });
    expect(narrowed.status).toBe(400);
    expect((await request(api.app).patch(`/admin/v1/contact-fields/${id}`).set(api.adminAuth).send({ type: 'text' })).status).toBe(400);
    const list = await get('/v1/contact-fields');
    expect(list.status).toBe(200);
    expect(list.body.data.map((f: { key: string }) => f.key)).toEqual(['cnpj', 'cpf', 'nascimento', 'plano', 'pontos', 'site', 'vip']);
    expect((await get('/v1/contact-fields', otherAuth)).body.data).toEqual([]);
  });

  it('deleting a definition drops its values', async () => {
    const temp = await field({ key: 'temp', label: 'Temp', type: 'text' });
    const c = await post('/v1/contacts', { phone: '+5511911110001', custom_fields: { temp: 'x' } });
    expect(c.body.data.custom_fields).toEqual({ temp: 'x' });
    const deleted = await request(api.app).delete(`/admin/v1/contact-fields/${temp.body.data.id}`).set(api.adminAuth);
    expect(deleted.body.data).toMatchObject({ deleted: true, values_removed: 1 });
    expect((await get(`/v1/contacts/${c.body.data.id}`)).body.data.custom_fields).toEqual({});
    expect((await request(api.app).delete(`/admin/v1/contact-fields/${temp.body.data.id}`).set(api.adminAuth)).status).toBe(404);
  });
});

describe('contacts', () => {
  it('upserts fill-only: 201 then 200 with filled and kept, either ninth-digit form', async () => {
    const created = await post('/v1/contacts', { phone: '+5511987650001', name: 'Ana', custom_fields: { plano: 'ouro' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ phone: '+5511987650001', name: 'Ana', created: true, filled: ['name', 'custom_fields.plano'], kept: [], ia_ativa: true });
    const again = await post('/v1/contacts', { phone: '+551187650001', name: 'Outra', email: 'ana@x.test', custom_fields: { plano: 'prata', pontos: 3 } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: created.body.data.id, created: false, name: 'Ana', email: 'ana@x.test', custom_fields: { plano: 'ouro', pontos: 3 } });
    expect(again.body.data.filled.sort()).toEqual(['custom_fields.pontos', 'email']);
    expect(again.body.data.kept.sort()).toEqual(['custom_fields.plano', 'name']);
    const events = await api.database.db.selectFrom('domain_events').select(['event', 'data']).where('company_id', '=', company.id).where('event', '=', 'contact.created').execute();
    expect(events.filter((e) => (e.data as { contactId: string }).contactId === created.body.data.id)).toEqual([
      { event: 'contact.created', data: { contactId: created.body.data.id, phone: '+5511987650001', name: 'Ana', source: 'api' } },
    ]);
  });

  it('checks custom fields against their definitions, CPF and CNPJ check digits included', async () => {
    const bad = await post('/v1/contacts', { phone: '+5511987650002', custom_fields: { cpf: '529.982.247-24', desconhecido: 1, pontos: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['custom_fields.cpf', 'custom_fields.desconhecido', 'custom_fields.pontos']);
    const good = await post('/v1/contacts', { phone: '+5511987650002', custom_fields: { cpf: '529.982.247-25', cnpj: '11.222.333/0001-81', nascimento: '1990-02-28', vip: true, site: 'https://a.test' } });
    expect(good.status).toBe(201);
    const wrongCnpj = await patch(`/v1/contacts/${good.body.data.id}`, { custom_fields: { cnpj: '11.222.333/0001-82' } });
    expect(wrongCnpj.status).toBe(400);
    expect(wrongCnpj.body.error.details.errors[0].field).toBe('custom_fields.cnpj');
    expect((await patch(`/v1/contacts/${good.body.data.id}`, { custom_fields: { nascimento: '1990-02-30' } })).status).toBe(400);
  });

  it('PATCH replaces, null clears; unchanged answers changed false', async () => {
    const c = (await post('/v1/contacts', { phone: '+5511987650003', name: 'Bia', custom_fields: { plano: 'ouro' } })).body.data;
    const res = await patch(`/v1/contacts/${c.id}`, { name: 'Bia Lima', custom_fields: { plano: null, pontos: 10 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Bia Lima', custom_fields: { pontos: 10 }, changed: true });
    expect((await patch(`/v1/contacts/${c.id}`, { name: 'Bia Lima' })).body.data.changed).toBe(false);
    expect((await patch(`/v1/contacts/${c.id}`, { name: 'x'.repeat(101) })).status).toBe(400);
  });

  it('twenty concurrent upserts of one new phone make one contact', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => post('/v1/contacts', { phone: i % 2 ? '+5511987659999' : '+551187659999', name: `N${i}` })));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(19).fill(200), 201]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    const rows = await api.database.db.selectFrom('contacts').select('id').where('company_id', '=', company.id).where('phone_key', '=', '+551187659999').execute();
    expect(rows).toHaveLength(1);
  });

  it('lists and searches by either phone form, q, assistant, tags and updated_since', async () => {
    const tag = (await post('/v1/tags', { name: 'Busca' })).body.data;
    const c = (await post('/v1/contacts', { phone: '+5521987650004', name: 'Carla Search', email: 'carla@busca.test', tag_ids: [tag.id] })).body.data;
    const ids = async (query: string) => (await get(`/v1/contacts?${query}`)).body.data.items.map((x: { id: string }) => x.id);
    expect(await ids('phone=%2B552187650004')).toEqual([c.id]);
    expect(await ids('phone=%2B5521987650004')).toEqual([c.id]);
    expect(await ids('q=carla%20sea')).toEqual([c.id]);
    expect(await ids('q=CARLA%40BUSCA')).toEqual([c.id]);
    expect(await ids('q=987650004')).toEqual([c.id]);
    expect(await ids(`tag_id=${tag.id}`)).toEqual([c.id]);
    expect(await ids(`tag_id=${tag.id},00000000-0000-4000-8000-000000000001`)).toEqual([]);
    const since = new Date(Date.now() + 60_000).toISOString();
    expect(await ids(`updated_since=${encodeURIComponent(since)}`)).toEqual([]);
    expect((await get('/v1/contacts?ia_ativa=false')).body.data.items).toEqual([]);
    const page = (await get('/v1/contacts?limit=2')).body.data;
    expect(page).toMatchObject({ page: 1, limit: 2 });
    expect(page.items[0]).toEqual(
      expect.objectContaining({ id: expect.any(String), phone: expect.any(String), custom_fields: expect.any(Object), tag_ids: expect.any(Array), ia_paused_until: null }),
    );
    expect((await get('/v1/contacts?limit=101')).status).toBe(400);
    expect((await get('/v1/contacts?phone=123')).status).toBe(400);
    expect((await get('/v1/contacts?phone=%2B5521987650004', otherAuth)).body.data.items).toEqual([]);
  });

  it('the 360 view has tags, the ticket its inbound message opened, no appointments, affinities and stats; another company gets 404', async () => {
    const tag = (await post('/v1/tags', { name: '360' })).body.data;
    const c = (await post('/v1/contacts', { phone: '+5511987650005', tag_ids: [tag.id] })).body.data;
    await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setorId, from: '+5511987650005', text: 'Oi' });
    const res = await get(`/v1/contacts/${c.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: c.id,
      tags: [{ id: tag.id, name: '360' }],
      active_tickets: [{ contact: { id: c.id, phone: '+5511987650005' }, setor_id: setorId, status: 'open', last_message: { direction: 'inbound', preview: 'Oi' } }],
      recent_tickets: [],
      upcoming_appointments: [],
      affinities: [{ setor_id: setorId, source: 'inbound' }],
      stats: { conversations: 1, messages_sent: 0 },
    });
    expect(res.body.data.last_inbound_at).not.toBeNull();
    expect((await get(`/v1/contacts/${c.id}`, otherAuth)).status).toBe(404);
    expect((await patch(`/v1/contacts/${c.id}`, { name: 'x' }, otherAuth)).status).toBe(404);
    expect((await patch(`/v1/contacts/${c.id}/assistant`, { ia_ativa: false }, otherAuth)).status).toBe(404);
    expect((await post(`/v1/contacts/${c.id}/merge`, { merge_contact_id: '00000000-0000-4000-8000-000000000001' }, otherAuth)).status).toBe(404);
    expect((await get('/v1/contacts/not-a-uuid')).status).toBe(404);
    expect((await post('/v1/contacts', { phone: '+5511987650006', tag_ids: ['00000000-0000-4000-8000-000000000001'] })).status).toBe(404);
  });

  it('PATCH, the assistant switch, merge and an upsert of an existing contact answer it as the list shows it: its tag_ids and last_inbound_at', async () => {
    // A company of its own: the merge test below reads the first contact.merged of the shared one.
    const own = await api.createCompany({ company_rpm: 100_000 });
    const ownAuth = { Authorization: `Bearer ${await api.createKey(own.id, { rpm: 100_000 })}` };
    const ownSetor = (await api.createSetor(own.id, { nome: 'Vendas' })).id;
    const tag = (await post('/v1/tags', { name: 'Answered' }, ownAuth)).body.data;
    const c = (await post('/v1/contacts', { phone: '+5511987650031', tag_ids: [tag.id] }, ownAuth)).body.data;
    const other = (await post('/v1/contacts', { phone: '+5511987650032' }, ownAuth)).body.data;
    await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: ownSetor, from: '+5511987650031', text: 'Oi' }).expect(201);
    const listed = (await get('/v1/contacts?phone=%2B5511987650031', ownAuth)).body.data.items[0];
    expect(listed).toMatchObject({ id: c.id, tag_ids: [tag.id], last_inbound_at: expect.any(String) });
    const expected = { tag_ids: [tag.id], last_inbound_at: listed.last_inbound_at };
    expect((await patch(`/v1/contacts/${c.id}`, { name: 'Lia' }, ownAuth)).body.data).toMatchObject({ name: 'Lia', changed: true, ...expected });
    expect((await patch(`/v1/contacts/${c.id}`, { name: 'Lia' }, ownAuth)).body.data).toMatchObject({ changed: false, ...expected });
    expect((await patch(`/v1/contacts/${c.id}/assistant`, { ia_ativa: false }, ownAuth)).body.data).toMatchObject({ ia_ativa: false, ...expected });
    expect((await post(`/v1/contacts/${c.id}/merge`, { merge_contact_id: other.id }, ownAuth)).body.data).toMatchObject({ id: c.id, ...expected });
    expect((await post('/v1/contacts', { phone: '+5511987650031' }, ownAuth)).body.data).toMatchObject({ id: c.id, created: false, ...expected });
  });

  it('pauses and resumes the assistant; a pause ends by itself and is at most 30 days', async () => {
    const c = (await post('/v1/contacts', { phone: '+5511987650007' })).body.data;
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const paused = await patch(`/v1/contacts/${c.id}/assistant`, { paused_until: until });
    expect(paused.body.data).toMatchObject({ ia_ativa: false, ia_paused_until: until, changed: true });
    expect((await get('/v1/contacts?ia_ativa=false')).body.data.items.map((x: { id: string }) => x.id)).toContain(c.id);
    expect((await patch(`/v1/contacts/${c.id}/assistant`, { paused_until: new Date(Date.now() + 31 * 86_400_000).toISOString() })).status).toBe(400);
    const resumed = await patch(`/v1/contacts/${c.id}/assistant`, { ia_ativa: true });
    expect(resumed.body.data).toMatchObject({ ia_ativa: true, ia_paused_until: null, changed: true });
    expect((await patch(`/v1/contacts/${c.id}/assistant`, { ia_ativa: false })).body.data.ia_ativa).toBe(false);
  });

  it('merges another contact: tags, conversations and empty fields move in one transaction; contact.merged', async () => {
    const tag = (await post('/v1/tags', { name: 'Merge' })).body.data;
    const a = (await post('/v1/contacts', { phone: '+5511987650008', name: 'Survivor' })).body.data;
    const b = (await post('/v1/contacts', { phone: '+5511987650009', email: 'b@x.test', tag_ids: [tag.id] })).body.data;
    await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setorId, from: '+5511987650009', text: 'Oi' });
    const merged = await post(`/v1/contacts/${a.id}/merge`, { merge_contact_id: b.id });
    expect(merged.status).toBe(200);
    expect(merged.body.data).toMatchObject({ id: a.id, name: 'Survivor', email: 'b@x.test', tag_ids: [tag.id] });
    expect((await get(`/v1/contacts/${b.id}`)).status).toBe(404);
    expect((await get(`/v1/contacts/${a.id}`)).body.data.stats.conversations).toBe(1);
    const event = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', company.id).where('event', '=', 'contact.merged').executeTakeFirstOrThrow();
    // b's inbound message opened a ticket: it moved to the survivor with its conversation.
    expect(event.data).toEqual({ contactId: a.id, mergedContactId: b.id, phone: '+5511987650008', mergedPhone: '+5511987650009', movedTickets: 1 });
    expect((await get(`/v1/contacts/${a.id}`)).body.data.active_tickets).toEqual([expect.objectContaining({ contact: expect.objectContaining({ id: a.id }), status: 'open' })]);
    expect((await post(`/v1/contacts/${a.id}/merge`, { merge_contact_id: a.id })).status).toBe(400);
    expect((await post(`/v1/contacts/${a.id}/merge`, { merge_contact_id: b.id })).status).toBe(404);
  });

  it('refuses to merge two contacts that each have an active ticket on one box (409 CONFLICT, nothing moved)', async () => {
    const a = (await post('/v1/contacts', { phone: '+5511987650018', name: 'Ana' })).body.data;
    const b = (await post('/v1/contacts', { phone: '+5511987650019', name: 'Bia' })).body.data;
    for (const from of ['+5511987650018', '+5511987650019']) {
      await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setorId, from, text: 'Oi' }).expect(201);
    }
    const refused = await post(`/v1/contacts/${a.id}/merge`, { merge_contact_id: b.id });
    expect([refused.status, refused.body.error.code, refused.body.error.details]).toEqual([409, 'CONFLICT', { setor_id: setorId }]);
    expect((await get(`/v1/contacts/${b.id}`)).body.data.active_tickets).toHaveLength(1);
    expect((await get(`/v1/contacts/${a.id}`)).body.data.active_tickets).toHaveLength(1);
  });
});

describe('merge of a contact that other areas name as their client', () => {
  it('moves its opportunities, contracts, scheduled messages and campaign recipients to the survivor, and counts its sent messages there', async () => {
    const { setor, auth: own } = await api.createTenant({ settings: { company_rpm: 100_000 }, key: { mode: 'live', rpm: 100_000 } });
    const a = (await post('/v1/contacts', { phone: '+5511987650028', name: 'Ana' }, own)).body.data;
    // The CRM resolves its client by phone (the contact b is created here).
    const opportunity = (await post('/v1/crm/opportunities', { title: 'Site', phone: '+5511987650029', name: 'Bia' }, own).expect(201)).body.data;
    const b = opportunity.client;
    const contract = (await post('/v1/contracts', { title: 'Serviços', client_id: b.id, content: 'Entre {{empresa_nome}} e {{cliente_nome}}.' }, own).expect(201)).body.data;
    const sendAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const scheduled = (await post('/v1/scheduled-messages', { phone: '+5511987650029', text: 'Oi', send_at: sendAt }, own).expect(201)).body.data;
    await post('/v1/messages', { phone: '+5511987650029', setor_id: setor.id, message: { text: 'Olá' } }, own).expect(201);
    // A campaign scheduled for tomorrow: its recipient row names b until the merge.
    const campaign = (await post('/v1/campaigns', { name: 'Promo', recipients: [{ phone: '+5511987650029', name: 'Bia' }], message: { text: 'Oi' }, options: { schedule_at: new Date(Date.now() + 86_400_000).toISOString() } }, own).expect(202)).body.data;
    // As the campaign's prepare job links its recipients to their contacts (the worker does not run here).
    await api.database.db.updateTable('campaign_messages').set({ contact_id: b.id }).where('campaign_id', '=', campaign.id).execute();
    const recipientOf = async () => (await get(`/v1/campaigns/${campaign.id}/recipients`, own)).body.data.items[0].client_id;
    expect(await recipientOf()).toBe(b.id);
    expect((await get(`/v1/contacts/${b.id}`, own)).body.data.stats.messages_sent).toBe(1);

    const merged = await post(`/v1/contacts/${a.id}/merge`, { merge_contact_id: b.id }, own);

    expect(merged.status).toBe(200);
    expect((await get(`/v1/crm/opportunities/${opportunity.id}`, own)).body.data.client.id).toBe(a.id);
    expect((await get(`/v1/contracts/${contract.id}`, own)).body.data.client.id).toBe(a.id);
    expect((await get(`/v1/scheduled-messages/${scheduled.id}`, own)).body.data.client.id).toBe(a.id);
    expect((await get(`/v1/contacts/${a.id}`, own)).body.data.stats.messages_sent).toBe(1);
    expect(await recipientOf()).toBe(a.id);
  });
});

describe('tags and rules', () => {
  it('tag CRUD: names unique ignoring case (409 with the existing id), delete answers its counts', async () => {
    const tag = await post('/v1/tags', { name: 'Cliente VIP', color: '#AA00FF', description: 'd' });
    expect(tag.status).toBe(201);
    const dup = await post('/v1/tags', { name: 'cliente vip' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.details.tag_id).toBe(tag.body.data.id);
    expect((await post('/v1/tags', { name: 'x', color: 'red' })).status).toBe(400);
    expect((await post('/v1/tags', { name: 'cliente vip' }, otherAuth)).status).toBe(201);
    expect((await get('/v1/tags?q=VIP')).body.data.items.map((t: { id: string }) => t.id)).toEqual([tag.body.data.id]);
    const edited = await patch(`/v1/tags/${tag.body.data.id}`, { name: 'VIP', color: null });
    expect(edited.body.data).toMatchObject({ name: 'VIP', color: null, description: 'd' });
    const busca = (await get('/v1/tags?q=busca')).body.data.items[0];
    expect((await patch(`/v1/tags/${tag.body.data.id}`, { name: 'BUSCA' })).body.error.details.tag_id).toBe(busca.id);
    expect((await patch(`/v1/tags/${tag.body.data.id}`, { name: 'y' }, otherAuth)).status).toBe(404);
    const contact = (await post('/v1/contacts', { phone: '+5511987650010', tag_ids: [tag.body.data.id] })).body.data;
    await post('/v1/tag-rules', { tag_id: tag.body.data.id, match_type: 'contains', match_value: 'vip' });
    expect((await del(`/v1/tags/${tag.body.data.id}`, otherAuth)).status).toBe(404);
    const deleted = await del(`/v1/tags/${tag.body.data.id}`);
    expect(deleted.body.data).toEqual({ deleted: true, id: tag.body.data.id, contacts_untagged: 1, rules_deleted: 1 });
    expect((await get(`/v1/contacts/${contact.id}`)).body.data.tag_ids).toEqual([]);
    expect((await del(`/v1/tags/${tag.body.data.id}`)).status).toBe(404);
  });

  it('rule CRUD: regex on RE2 (backreferences and lookaround refused), box filter, dry run', async () => {
    const tag = (await post('/v1/tags', { name: 'Orçamento' })).body.data;
    expect((await post('/v1/tag-rules', { tag_id: tag.id, match_type: 'regex', match_value: '(a)\\1' })).status).toBe(400);
    expect((await post('/v1/tag-rules', { tag_id: tag.id, match_type: 'regex', match_value: 'foo(?=bar)' })).status).toBe(400);
    expect((await post('/v1/tag-rules', { tag_id: '00000000-0000-4000-8000-000000000001', match_type: 'contains', match_value: 'x' })).status).toBe(404);
    expect((await post('/v1/tag-rules', { tag_id: tag.id, match_type: 'contains', match_value: 'x', setor_ids: ['00000000-0000-4000-8000-000000000001'] })).status).toBe(404);
    const rule = await post('/v1/tag-rules', { tag_id: tag.id, match_type: 'contains', match_value: 'Orcamento' });
    expect(rule.status).toBe(201);
    expect(rule.body.data).toMatchObject({ match_type: 'contains', case_sensitive: false, scope: 'contact', setor_ids: [], enabled: true });
    const boxed = (await post('/v1/tag-rules', { tag_id: tag.id, match_type: 'regex', match_value: '^pre[çc]o\\b', setor_ids: [setorId] })).body.data;
    const test = async (body: Record<string, unknown>) => (await post('/v1/tag-rules/test', body)).body.data.matches.map((m: { rule_id: string }) => m.rule_id);
    expect(await test({ text: 'Quero um ORÇAMENTO' })).toEqual([rule.body.data.id]);
    expect(await test({ text: 'Preço?', setor_id: setorId })).toEqual([boxed.id]);
    expect(await test({ text: 'Preço?' })).toEqual([]);
    const off = await patch(`/v1/tag-rules/${rule.body.data.id}`, { enabled: false, match_value: 'novo' });
    expect(off.body.data).toMatchObject({ enabled: false, match_value: 'novo' });
    expect((await patch(`/v1/tag-rules/${rule.body.data.id}`, { match_type: 'regex', match_value: '(?<=a)b' })).status).toBe(400);
    expect(await test({ text: 'orçamento' })).toEqual([]);
    expect((await get('/v1/tag-rules')).body.data.items.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining([rule.body.data.id, boxed.id]));
    expect((await get('/v1/tag-rules', otherAuth)).body.data.items).toEqual([]);
    expect((await patch(`/v1/tag-rules/${boxed.id}`, { enabled: false }, otherAuth)).status).toBe(404);
    expect((await del(`/v1/tag-rules/${boxed.id}`, otherAuth)).status).toBe(404);
    expect((await del(`/v1/tag-rules/${boxed.id}`)).body.data).toEqual({ deleted: true, id: boxed.id });
    await del(`/v1/tag-rules/${rule.body.data.id}`);
  });

  it('a rule tags the contact of an inbound message (contact.tagged, source rule), once, and never on outbound', async () => {
    const tag = (await post('/v1/tags', { name: 'Interesse' })).body.data;
    const rule = (await post('/v1/tag-rules', { tag_id: tag.id, match_type: 'starts_with', match_value: 'quero' })).body.data;
    const inbound = await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setorId, from: '+5511987650011', text: '  QUÉRO comprar' });
    expect(inbound.status).toBe(201);
    expect(inbound.body.data.tags_added).toEqual([tag.id]);
    const contactId = inbound.body.data.client_id;
    expect((await get(`/v1/contacts/${contactId}`)).body.data.tag_ids).toEqual([tag.id]);
    const again = await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setorId, from: '+5511987650011', text: 'quero mais' });
    expect(again.body.data.tags_added).toEqual([]);
    const events = await api.database.db.selectFrom('domain_events').select(['data', 'setor_id']).where('event', '=', 'contact.tagged').where('company_id', '=', company.id).execute();
    expect(events.filter((e) => (e.data as { contactId: string }).contactId === contactId)).toEqual([
      { setor_id: setorId, data: { contactId, tagIds: [tag.id], source: 'rule', ruleId: rule.id } },
    ]);
    await del(`/v1/tag-rules/${rule.id}`);
  });

  it('a regex rule over a 4,096-character hostile input finishes fast (linear time)', async () => {
    const tag = (await post('/v1/tags', { name: 'ReDoS' })).body.data;
    const rule = (await post('/v1/tag-rules', { tag_id: tag.id, match_type: 'regex', match_value: '^(a+)+$', case_sensitive: true })).body.data;
    const hostile = `${'a'.repeat(4095)}!`;
    const started = performance.now();
    const res = await post('/v1/tag-rules/test', { text: hostile });
    const elapsed = performance.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.data.matches).toEqual([]);
    // A backtracking engine needs 2^4095 steps here; RE2 answers in milliseconds.
    expect(elapsed).toBeLessThan(1_000);
    await del(`/v1/tag-rules/${rule.id}`);
  });
});

describe('Idempotency-Key', () => {
  it('replays POST /v1/contacts and POST /v1/imports; another body with the key is 422', async () => {
    const key = { 'Idempotency-Key': `contacts-${Date.now()}` };
    const body = { phone: '+5511987650200', name: 'Idem' };
    const first = await request(api.app).post('/v1/contacts').set(otherAuth).set(key).send(body);
    expect(first.status).toBe(201);
    const again = await request(api.app).post('/v1/contacts').set(otherAuth).set(key).send(body);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual({ ...first.body, meta: { idempotent_replay: true } });
    const mismatch = await request(api.app).post('/v1/contacts').set(otherAuth).set(key).send({ ...body, name: 'Outro' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error.code).toBe('IDEMPOTENCY_KEY_MISMATCH');

    const importKey = { 'Idempotency-Key': `imports-${Date.now()}` };
    const importBody = { type: 'contacts', rows: [{ phone: '+5511987650201' }] };
    const queued = await request(api.app).post('/v1/imports').set(otherAuth).set(importKey).send(importBody);
    expect(queued.status).toBe(202);
    const replayed = await request(api.app).post('/v1/imports').set(otherAuth).set(importKey).send(importBody);
    expect(replayed.status).toBe(202);
    expect(replayed.body.data.job_id).toBe(queued.body.data.job_id);
    expect(replayed.body.meta).toEqual({ idempotent_replay: true });
    const jobs = await api.database.db.selectFrom('contact_imports').select('id').where('company_id', '=', other.id).execute();
    expect(jobs).toHaveLength(1);
  });
});

describe('imports (the API side)', () => {
  it('answers 202 with job_id, refuses a third active import, reads progress, 404 for another company', async () => {
    const first = await post('/v1/imports', { type: 'contacts', rows: [{ phone: '+5511987650100' }, { phone: 'bad' }] });
    expect(first.status).toBe(202);
    expect(first.body.data).toMatchObject({ status: 'queued', total: 2 });
    const csv = await post('/v1/imports', { type: 'contacts', csv: 'phone,name,pontos\n+5511987650101,Ana,7\n' });
    expect(csv.status).toBe(202);
    const third = await post('/v1/imports', { type: 'contacts', rows: [{ phone: '+5511987650102' }] });
    expect(third.status).toBe(403);
    expect(third.body.error.code).toBe('CONCURRENT_LIMIT_EXCEEDED');
    const read = await get(`/v1/imports/${first.body.data.job_id}`);
    expect(read.body.data).toMatchObject({ job_id: first.body.data.job_id, status: 'queued', total: 2, processed: 0, progress: 0, errors: [] });
    expect((await get(`/v1/imports/${first.body.data.job_id}`, otherAuth)).status).toBe(404);
    expect((await post('/v1/imports', { type: 'contacts' }, otherAuth)).status).toBe(400);
    expect((await post('/v1/imports', { type: 'contacts', rows: [] }, otherAuth)).status).toBe(400);
    expect((await post('/v1/imports', { type: 'contacts', csv: 'name\nAna\n' }, otherAuth)).status).toBe(400);
    expect((await post('/v1/imports', { type: 'contacts', rows: [{ phone: '+5511987650103' }], tag_ids: ['00000000-0000-4000-8000-000000000001'] }, otherAuth)).status).toBe(404);
    const jobs = await sql<{ data: { importId: string } }>`SELECT data FROM pgboss.job WHERE name = 'contact-import'`.execute(api.database.db);
    expect(jobs.rows.map((j) => j.data.importId)).toEqual(expect.arrayContaining([first.body.data.job_id, csv.body.data.job_id]));
  });
});

it('every contacts, tags and imports route answers 403 to a key without its scope', async () => {
  const routes: [string, string, Scope][] = [
    ['get', '/v1/contacts', 'contacts:read'],
    ['post', '/v1/contacts', 'contacts:write'],
    ['get', '/v1/contacts/00000000-0000-4000-8000-000000000001', 'contacts:read'],
    ['patch', '/v1/contacts/00000000-0000-4000-8000-000000000001', 'contacts:write'],
    ['patch', '/v1/contacts/00000000-0000-4000-8000-000000000001/assistant', 'contacts:write'],
    ['post', '/v1/contacts/00000000-0000-4000-8000-000000000001/merge', 'contacts:write'],
    ['get', '/v1/contact-fields', 'contacts:read'],
    ['get', '/v1/tags', 'tags:read'],
    ['post', '/v1/tags', 'tags:write'],
    ['patch', '/v1/tags/00000000-0000-4000-8000-000000000001', 'tags:write'],
    ['delete', '/v1/tags/00000000-0000-4000-8000-000000000001', 'tags:write'],
    ['get', '/v1/tag-rules', 'tags:read'],
    ['post', '/v1/tag-rules', 'tags:write'],
    ['post', '/v1/tag-rules/test', 'tags:read'],
    ['patch', '/v1/tag-rules/00000000-0000-4000-8000-000000000001', 'tags:write'],
    ['delete', '/v1/tag-rules/00000000-0000-4000-8000-000000000001', 'tags:write'],
    ['post', '/v1/imports', 'imports:write'],
    ['get', '/v1/imports/00000000-0000-4000-8000-000000000001', 'imports:write'],
  ];
  for (const [method, path, scope] of routes) {
    const key = await api.createKey(company.id, { scopes: Scopes.filter((s) => s !== scope), rpm: 100_000 });
    const res = await (request(api.app) as unknown as Record<string, (p: string) => request.Test>)[method]!(path).set('Authorization', `Bearer ${key}`).send({});
    expect({ route: `${method} ${path}`, status: res.status, scope: res.body.error?.details?.required_scope }).toEqual({ route: `${method} ${path}`, status: 403, scope });
  }
  const adminOnly = await request(api.app).post(`/admin/v1/companies/${company.id}/contact-fields`).set(auth).send({ key: 'k', label: 'k', type: 'text' });
  expect(adminOnly.status).toBe(401);
});
