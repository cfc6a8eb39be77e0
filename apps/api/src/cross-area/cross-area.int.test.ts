import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';

// One area's write meeting another area's rows, through HTTP only (docs of each area say the decisions).

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api.close());

const admin = (method: 'post' | 'patch' | 'delete' | 'get', path: string, body?: object) => request(api.app)[method](path).set(api.adminAuth).send(body);
const as = (auth: { Authorization: string }) => ({
  get: (path: string) => request(api.app).get(path).set(auth),
  post: (path: string, body: object, headers: Record<string, string> = {}) => request(api.app).post(path).set(auth).set(headers).send(body),
  patch: (path: string, body: object) => request(api.app).patch(path).set(auth).send(body),
  delete: (path: string) => request(api.app).delete(path).set(auth),
});
const tenant = () => api.createTenant({ settings: { company_rpm: 100_000 }, key: { rpm: 100_000 } });

describe('contact merge meets tickets and tags', () => {
  it('the merged contact active ticket on a box where the survivor has a closed one joins the survivor, and its next inbound joins that ticket', async () => {
    const { auth, setor } = await tenant();
    const v = as(auth);
    const inbound = (from: string, text: string) => admin('post', '/admin/v1/simulator/inbound', { setor_id: setor.id, from, text }).expect(201);
    const first = (await inbound('+5511987651001', 'Oi')).body.data;
    await v.patch(`/v1/tickets/${first.ticket_id}/status`, { status: 'closed', send_closing_message: false }).expect(200);
    const second = (await inbound('+5511987651002', 'Olá')).body.data;
    const survivor = (await v.get(`/v1/contacts?phone=${encodeURIComponent('+5511987651001')}`).expect(200)).body.data.items[0];
    const merged = (await v.get(`/v1/contacts?phone=${encodeURIComponent('+5511987651002')}`).expect(200)).body.data.items[0];
    const shared = (await v.post('/v1/tags', { name: 'VIP' }).expect(201)).body.data;
    const own = (await v.post('/v1/tags', { name: 'Lead' }).expect(201)).body.data;
    await v.post('/v1/contacts', { phone: '+5511987651001', tag_ids: [shared.id] }).expect(200);
    await v.post('/v1/contacts', { phone: '+5511987651002', tag_ids: [shared.id, own.id] }).expect(200);

    await v.post(`/v1/contacts/${survivor.id}/merge`, { merge_contact_id: merged.id }).expect(200);

    const detail = (await v.get(`/v1/contacts/${survivor.id}`).expect(200)).body.data;
    expect(detail.active_tickets.map((t: { id: string }) => t.id)).toEqual([second.ticket_id]);
    expect([...detail.tag_ids].sort()).toEqual([shared.id, own.id].sort());
    const again = (await inbound('+5511987651001', 'Voltei')).body.data;
    expect(again).toMatchObject({ ticket_id: second.ticket_id, ticket_created: false });
    expect((await v.get(`/v1/tickets?status=open`).expect(200)).body.data.items.map((t: { id: string }) => t.id)).toEqual([second.ticket_id]);
    expect((await v.delete(`/v1/tags/${shared.id}`).expect(200)).body.data).toMatchObject({ contacts_untagged: 1 });
  });
});

describe('contact merge meets the conversations of one box', () => {
  it('keeps the latest inbound and outbound of the merged conversation on the survivor', async () => {
    const { auth, setor } = await tenant();
    const v = as(auth);
    const inbound = (from: string) => admin('post', '/admin/v1/simulator/inbound', { setor_id: setor.id, from, text: 'Oi' }).expect(201);
    const own = (await inbound('+5511987651051')).body.data;
    await v.patch(`/v1/tickets/${own.ticket_id}/status`, { status: 'closed', send_closing_message: false }).expect(200);
    const survivor = (await v.get(`/v1/contacts?phone=${encodeURIComponent('+5511987651051')}`).expect(200)).body.data.items[0];
    await inbound('+5511987651052');
    await v.post('/v1/messages', { phone: '+5511987651052', setor_id: setor.id, message: { text: 'Olá' } }).expect(201);
    const mergedId = (await v.get(`/v1/contacts?phone=${encodeURIComponent('+5511987651052')}`).expect(200)).body.data.items[0].id;
    const merged = (await v.get(`/v1/contacts/${mergedId}`).expect(200)).body.data;
    expect(merged.stats.last_inbound_at > survivor.last_inbound_at).toBe(true);

    await v.post(`/v1/contacts/${survivor.id}/merge`, { merge_contact_id: merged.id }).expect(200);

    const after = (await v.get(`/v1/contacts/${survivor.id}`).expect(200)).body.data;
    expect(after.stats).toMatchObject({ conversations: 1, last_inbound_at: merged.stats.last_inbound_at, last_outbound_at: merged.stats.last_outbound_at });
    expect(after.last_inbound_at).toBe(merged.stats.last_inbound_at);
  });
});

describe('an agent deactivated while tickets are assigned', () => {
  it('puts their open tickets back in the queue and refuses them as assignee', async () => {
    const { company, auth, setor } = await tenant();
    const v = as(auth);
    const agent = (await admin('post', `/admin/v1/companies/${company.id}/agents`, { name: 'Ana', email: 'ana@x.example', status: 'available' }).expect(201)).body.data;
    const t = (await admin('post', '/admin/v1/simulator/inbound', { setor_id: setor.id, from: '+5511987651101', text: 'Oi' }).expect(201)).body.data;
    await v.patch(`/v1/tickets/${t.ticket_id}/assignee`, { agent_id: agent.id }).expect(200);

    await admin('patch', `/admin/v1/agents/${agent.id}`, { active: false }).expect(200);

    expect((await v.get(`/v1/tickets/${t.ticket_id}`).expect(200)).body.data.agent_id).toBeNull();
    expect((await v.get('/v1/queue').expect(200)).body.data.items.map((q: { ticket_id: string }) => q.ticket_id)).toEqual([t.ticket_id]);
    await v.patch(`/v1/tickets/${t.ticket_id}/assignee`, { agent_id: agent.id }).expect(404);
  });
});

describe("a team's members and boxes replaced while its tickets are queued", () => {
  it('the new available member of an auto-assign team takes the queued tickets; the removed one keeps what they hold', async () => {
    const { company, auth, setor } = await tenant();
    const v = as(auth);
    const team = (await admin('post', `/admin/v1/companies/${company.id}/teams`, { nome: 'Suporte', setor_ids: [setor.id] }).expect(201)).body.data;
    await admin('patch', `/admin/v1/teams/${team.id}`, { auto_assign: true, max_open_per_agent: 1 }).expect(200);
    await admin('patch', `/admin/v1/setores/${setor.id}`, { default_team_id: team.id }).expect(200);
    const ana = (await admin('post', `/admin/v1/companies/${company.id}/agents`, { name: 'Ana', email: 'ana@t.example', status: 'available', team_ids: [team.id] }).expect(201)).body.data;
    const held = (await admin('post', '/admin/v1/simulator/inbound', { setor_id: setor.id, from: '+5511987651501', text: 'Oi' }).expect(201)).body.data;
    const queued = (await admin('post', '/admin/v1/simulator/inbound', { setor_id: setor.id, from: '+5511987651502', text: 'Oi' }).expect(201)).body.data;
    expect((await v.get(`/v1/tickets/${held.ticket_id}`).expect(200)).body.data.agent_id).toBe(ana.id);
    expect((await v.get('/v1/queue').expect(200)).body.data.items.map((q: { ticket_id: string }) => q.ticket_id)).toEqual([queued.ticket_id]);
    const bia = (await admin('post', `/admin/v1/companies/${company.id}/agents`, { name: 'Bia', email: 'bia@t.example', status: 'available' }).expect(201)).body.data;

    await admin('patch', `/admin/v1/teams/${team.id}`, { agent_ids: [bia.id], setor_ids: [] }).expect(200);

    expect((await v.get(`/v1/tickets/${queued.ticket_id}`).expect(200)).body.data).toMatchObject({ agent_id: bia.id, team_id: team.id });
    expect((await v.get(`/v1/tickets/${held.ticket_id}`).expect(200)).body.data.agent_id).toBe(ana.id);
    expect((await v.get('/v1/queue').expect(200)).body.data.total).toBe(0);
  });
});

describe('a tag deleted while rules and ticket filters use it', () => {
  it('drops its rules, and a filter naming it answers an empty page', async () => {
    const { auth, setor } = await tenant();
    const v = as(auth);
    const tag = (await v.post('/v1/tags', { name: 'Orçamento' }).expect(201)).body.data;
    await v.post('/v1/tag-rules', { tag_id: tag.id, match_type: 'contains', match_value: 'orçamento', scope: 'conversation' }).expect(201);
    const t = (await admin('post', '/admin/v1/simulator/inbound', { setor_id: setor.id, from: '+5511987651201', text: 'quero um orçamento' }).expect(201)).body.data;
    expect(t.tags_added).toHaveLength(1);

    await v.delete(`/v1/tags/${tag.id}`).expect(200);

    expect((await v.get('/v1/tag-rules').expect(200)).body.data.items).toEqual([]);
    expect((await v.get(`/v1/tickets?tag_id=${tag.id}`).expect(200)).body.data.items).toEqual([]);
    expect((await v.get(`/v1/tickets/${t.ticket_id}`).expect(200)).body.data.tag_ids).toEqual([]);
    const next = (await admin('post', '/admin/v1/simulator/inbound', { setor_id: setor.id, from: '+5511987651201', text: 'outro orçamento' }).expect(201)).body.data;
    expect(next.tags_added).toEqual([]);
  });
});

describe('an API key revoked between an Idempotency-Key request and its replay', () => {
  it('the revoked key gets 401, a narrower key 403, another key of the company the same answer', async () => {
    const { company, auth } = await tenant();
    const body = { phone: '+5511987651301', text: 'Oi', send_at: new Date(Date.now() + 86_400_000).toISOString() };
    const first = (await as(auth).post('/v1/scheduled-messages', body, { 'Idempotency-Key': 'k-1' }).expect(201)).body.data;
    const keys = (await admin('get', `/admin/v1/companies/${company.id}/api-keys`).expect(200)).body.data.items;
    await admin('delete', `/admin/v1/api-keys/${keys[0].id}`).expect(200);
    await as(auth).post('/v1/scheduled-messages', body, { 'Idempotency-Key': 'k-1' }).expect(401);
    const narrow = { Authorization: `Bearer ${await api.createKey(company.id, { scopes: ['scheduled_messages:read'], rpm: 100_000 })}` };
    await as(narrow).post('/v1/scheduled-messages', body, { 'Idempotency-Key': 'k-1' }).expect(403);
    const other = { Authorization: `Bearer ${await api.createKey(company.id, { rpm: 100_000 })}` };
    const replay = await as(other).post('/v1/scheduled-messages', body, { 'Idempotency-Key': 'k-1' }).expect(201);
    expect(replay.body).toMatchObject({ data: { id: first.id }, meta: { idempotent_replay: true } });
    expect((await as(other).get('/v1/scheduled-messages').expect(200)).body.data.items).toHaveLength(1);
  });
});

describe('one Idempotency-Key sent by a test key and by a live key of the company', () => {
  it('is two requests (test and live are apart, as in Stripe): the live one is not answered with the test object', async () => {
    const { company, auth } = await tenant();
    const live = { Authorization: `Bearer ${await api.createKey(company.id, { mode: 'live', rpm: 100_000 })}` };
    const body = { phone: '+5511987651601', text: 'Oi', send_at: new Date(Date.now() + 86_400_000).toISOString() };
    const inTest = (await as(auth).post('/v1/scheduled-messages', body, { 'Idempotency-Key': 'same' }).expect(201)).body;
    const inLive = (await as(live).post('/v1/scheduled-messages', body, { 'Idempotency-Key': 'same' }).expect(201)).body;
    expect(inLive.meta?.idempotent_replay).toBeUndefined();
    expect(inLive.data.id).not.toBe(inTest.data.id);
    const replay = (await as(live).post('/v1/scheduled-messages', body, { 'Idempotency-Key': 'same' }).expect(201)).body;
    expect(replay).toMatchObject({ data: { id: inLive.data.id }, meta: { idempotent_replay: true } });
  });
});

describe('a custom field deleted while contacts and imports use it', () => {
  it('drops the values; later writes naming it are row errors, not failures', async () => {
    const { company, auth } = await tenant();
    const v = as(auth);
    const field = (await admin('post', `/admin/v1/companies/${company.id}/contact-fields`, { key: 'plano', label: 'Plano', type: 'select', options: ['ouro'] }).expect(201)).body.data;
    const c = (await v.post('/v1/contacts', { phone: '+5511987651401', custom_fields: { plano: 'ouro' } }).expect(201)).body.data;
    await admin('delete', `/admin/v1/contact-fields/${field.id}`).expect(200);
    expect((await v.get(`/v1/contacts/${c.id}`).expect(200)).body.data.custom_fields).toEqual({});
    await v.patch(`/v1/contacts/${c.id}`, { custom_fields: { plano: 'ouro' } }).expect(400);
    const job = (await v.post('/v1/imports', { type: 'contacts', rows: [{ phone: '+5511987651402', custom_fields: { plano: 'ouro' } }, { phone: '+5511987651403' }] }).expect(202)).body.data;
    expect(job.total).toBe(2);
  });
});
