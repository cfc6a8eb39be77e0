import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AgentStatusListener, Repositories, createContact, newConversation } from '@carteiro/core';
import type { ServiceRepositories } from '@carteiro/postgres';
import { sql } from 'kysely';
import { ContainerModule } from 'inversify';
import request from 'supertest';
import { createTestApi, type TestApi, type TestCompany } from '../testing/test-api.js';

/** Records what the agents' use cases tell the listeners (the tickets area binds the real one). */
const told: { companyId: string; agentId: string }[] = [];
const recorder: AgentStatusListener = {
  async onAgentChanged(companyId, agentId) {
    told.push({ companyId, agentId });
  },
};

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi({ overrides: [new ContainerModule(({ bind }) => void bind(AgentStatusListener).toConstantValue(recorder))] });
});
afterAll(() => api.close());

const missing = '00000000-0000-4000-8000-000000000000';
const adminPost = (path: string, body: object) => request(api.app).post(path).set(api.adminAuth).send(body);
const adminPatch = (path: string, body: object) => request(api.app).patch(path).set(api.adminAuth).send(body);
const adminGet = (path: string) => request(api.app).get(path).set(api.adminAuth);

async function tenant(): Promise<{ company: TestCompany; auth: { Authorization: string } }> {
  const company = await api.createCompany({});
  const key = await api.createKey(company.id, { scopes: ['tickets:read', 'tickets:write'] });
  return { company, auth: { Authorization: `Bearer ${key}` } };
}

async function createAgent(companyId: string, body: Record<string, unknown>) {
  const res = await adminPost(`/admin/v1/companies/${companyId}/agents`, body);
  expect(res.status).toBe(201);
  return res.body.data as { id: string; name: string; email: string; status: string; active: boolean; team_ids: string[]; open_tickets: number };
}

async function createTeam(companyId: string, nome: string, setorIds: string[] = []) {
  const res = await adminPost(`/admin/v1/companies/${companyId}/teams`, { nome, setor_ids: setorIds });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; auto_assign: boolean; max_open_per_agent: number };
}

describe('agents (conversations.md §6, §9)', () => {
  it('the operator creates agents with unique emails per company, lists and updates them; no delete', async () => {
    const { company } = await tenant();
    const other = await tenant();
    const team = await createTeam(company.id, 'Vendas');
    const ana = await createAgent(company.id, { name: 'Ana', email: 'Ana@Example.com', team_ids: [team.id], status: 'available' });
    expect(ana).toMatchObject({ name: 'Ana', email: 'Ana@Example.com', status: 'available', active: true, team_ids: [team.id], open_tickets: 0 });
    expect((await createAgent(company.id, { name: 'Bia', email: 'bia@example.com' })).status).toBe('offline');

    const duplicate = await adminPost(`/admin/v1/companies/${company.id}/agents`, { name: 'Outra', email: 'ana@EXAMPLE.com' });
    expect([duplicate.status, duplicate.body.error.code, duplicate.body.error.details.agent_id]).toEqual([409, 'CONFLICT', ana.id]);
    // Another company may use the same email; another company's team is not a team of this one.
    await createAgent(other.company.id, { name: 'Ana', email: 'ana@example.com' });
    const otherTeam = await createTeam(other.company.id, 'Outro');
    const foreignTeam = await adminPost(`/admin/v1/companies/${company.id}/agents`, { name: 'C', email: 'c@example.com', team_ids: [otherTeam.id] });
    expect([foreignTeam.status, foreignTeam.body.error.details.field]).toEqual([400, 'team_ids']);
    expect((await adminPost(`/admin/v1/companies/${company.id}/agents`, { name: 'D', email: 'not-an-email' })).status).toBe(400);
    expect((await adminPost(`/admin/v1/companies/${company.id}/agents`, { name: 'D', email: 'd@example.com', status: 'busy' })).status).toBe(400);
    expect((await adminPost(`/admin/v1/companies/${missing}/agents`, { name: 'D', email: 'd@example.com' })).status).toBe(404);
    expect((await adminPost('/admin/v1/companies/nope/agents', { name: 'D', email: 'd@example.com' })).status).toBe(400);
    expect((await request(api.app).post(`/admin/v1/companies/${company.id}/agents`).send({ name: 'D', email: 'd@example.com' })).status).toBe(401);

    const list = await adminGet(`/admin/v1/companies/${company.id}/agents`);
    expect(list.body.data.items.map((a: { name: string }) => a.name)).toEqual(['Ana', 'Bia']);
    expect((await adminGet(`/admin/v1/companies/${missing}/agents`)).status).toBe(404);

    const renamed = await adminPatch(`/admin/v1/agents/${ana.id}`, { name: 'Ana Souza', email: 'ana.souza@example.com', team_ids: [] });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: ana.id, name: 'Ana Souza', email: 'ana.souza@example.com', team_ids: [] });
    const bia = list.body.data.items[1];
    const taken = await adminPatch(`/admin/v1/agents/${bia.id}`, { email: 'ANA.SOUZA@example.com' });
    expect([taken.status, taken.body.error.details.agent_id]).toEqual([409, ana.id]);
    expect((await adminPatch(`/admin/v1/agents/${missing}`, { active: false })).status).toBe(404);
    expect((await adminPatch('/admin/v1/agents/nope', { active: false })).status).toBe(400);
    expect((await adminPatch(`/admin/v1/agents/${ana.id}`, {})).status).toBe(400);
    expect((await request(api.app).delete(`/admin/v1/agents/${ana.id}`).set(api.adminAuth)).status).toBe(404);

    // Deactivating tells the listener (the tickets area returns the agent's open tickets to the queue).
    told.length = 0;
    const off = await adminPatch(`/admin/v1/agents/${ana.id}`, { active: false });
    expect(off.body.data.active).toBe(false);
    expect(told).toEqual([{ companyId: company.id, agentId: ana.id }]);
    told.length = 0;
    await adminPatch(`/admin/v1/agents/${ana.id}`, { name: 'Ana S.' });
    expect(told).toEqual([]);
    expect((await adminGet(`/admin/v1/companies/${company.id}/agents?active=false`)).body.data.items.map((a: { id: string }) => a.id)).toEqual([ana.id]);
  });

  it('GET /v1/agents lists the company’s active agents by default, with team and status filters', async () => {
    const { company, auth } = await tenant();
    const other = await tenant();
    const team = await createTeam(company.id, 'Suporte');
    const ana = await createAgent(company.id, { name: 'Ana', email: 'ana@example.com', status: 'available', team_ids: [team.id] });
    const bia = await createAgent(company.id, { name: 'Bia', email: 'bia@example.com', status: 'away' });
    const caio = await createAgent(company.id, { name: 'Caio', email: 'caio@example.com', status: 'available', active: false, team_ids: [team.id] });
    await createAgent(other.company.id, { name: 'Alien', email: 'alien@example.com' });
    const names = async (query = '') => {
      const res = await request(api.app).get(`/v1/agents${query}`).set(auth);
      expect(res.status).toBe(200);
      return res.body.data.items.map((a: { name: string }) => a.name);
    };
    expect(await names()).toEqual(['Ana', 'Bia']);
    expect(await names('?active=false')).toEqual(['Caio']);
    expect(await names(`?team_id=${team.id}`)).toEqual(['Ana']);
    expect(await names('?status=away')).toEqual(['Bia']);
    const page = await request(api.app).get('/v1/agents?limit=1&page=2').set(auth);
    expect(page.body.data).toMatchObject({ total: 2, page: 2, limit: 1, totalPages: 2 });
    expect(page.body.data.items[0]).toEqual({ id: bia.id, name: 'Bia', email: 'bia@example.com', status: 'away', active: true, team_ids: [], open_tickets: 0 });
    expect((await request(api.app).get('/v1/agents?status=busy').set(auth)).status).toBe(400);
    expect((await request(api.app).get('/v1/agents?limit=101').set(auth)).status).toBe(400);
    void ana;
    void caio;

    const noScope = await api.createKey(company.id, { scopes: ['tickets:write'] });
    expect((await request(api.app).get('/v1/agents').set({ Authorization: `Bearer ${noScope}` })).status).toBe(403);
  });

  it('PATCH /v1/agents/:id/status sets availability, tells the listener once, and answers changed: false for a repeat', async () => {
    const { company, auth } = await tenant();
    const other = await tenant();
    const ana = await createAgent(company.id, { name: 'Ana', email: 'ana@example.com' });
    told.length = 0;
    const set = (id: string, status: string, headers = auth) => request(api.app).patch(`/v1/agents/${id}/status`).set(headers).send({ status });
    const first = await set(ana.id, 'available');
    expect([first.status, first.body.data]).toEqual([200, { ...ana, status: 'available', changed: true }]);
    expect(told).toEqual([{ companyId: company.id, agentId: ana.id }]);
    const again = await set(ana.id, 'available');
    expect([again.status, again.body.data.changed]).toEqual([200, false]);
    expect(told).toHaveLength(1);
    expect((await set(ana.id, 'busy')).status).toBe(400);
    // Another company's agent, an unknown id and a malformed one are all missing.
    expect((await set(ana.id, 'away', other.auth)).status).toBe(404);
    expect((await set(missing, 'away')).status).toBe(404);
    expect((await set('nope', 'away')).status).toBe(404);
    const readOnly = await api.createKey(company.id, { scopes: ['tickets:read'] });
    expect((await set(ana.id, 'away', { Authorization: `Bearer ${readOnly}` })).status).toBe(403);
  });

  it('counts each agent’s non-closed tickets as open_tickets', async () => {
    const { company, auth } = await tenant();
    const ana = await createAgent(company.id, { name: 'Ana', email: 'ana@example.com' });
    const db = api.database.db;
    const setor = await api.createSetor(company.id);
    const now = new Date();
    const repos = api.container.get<ServiceRepositories>(Repositories);
    const contact = createContact(crypto.randomUUID(), company.id, '+5511987650001', 'Cliente', now);
    await repos.contacts.insert(contact);
    const conversation = await repos.conversations.findOrCreate(newConversation(crypto.randomUUID(), company.id, setor.id, contact.id, now));
    const [contactId, conversationId] = [contact.id, conversation.id];
    // The tickets area's table (0015-tickets); its routes are not needed to count.
    const ticket = (number: number, status: string) => sql`
      INSERT INTO tickets (id, company_id, number, status, priority_rank, setor_id, contact_id, conversation_id, agent_id, last_activity_at, source, rating_status, version, created_at, updated_at)
      VALUES (${crypto.randomUUID()}, ${company.id}, ${number}, ${status}, 4, ${setor.id}, ${contactId}, ${conversationId}, ${ana.id}, ${now}, 'api', 'none', 1, ${now}, ${now})`.execute(db);
    await ticket(1, 'open');
    await ticket(2, 'closed');
    await ticket(3, 'closed');
    const res = await request(api.app).get('/v1/agents').set(auth);
    expect(res.body.data.items).toEqual([expect.objectContaining({ id: ana.id, open_tickets: 1 })]);
  });
});

describe('concurrent creations', () => {
  it('ten simultaneous agents with one email and ten quick replies with one shortcut: one each is created, the others answer 409', async () => {
    const { company } = await tenant();
    const agents = await Promise.all(
      Array.from({ length: 10 }, (_, i) => adminPost(`/admin/v1/companies/${company.id}/agents`, { name: `Ana ${i}`, email: i % 2 ? 'ANA@example.com' : 'ana@example.com' })),
    );
    expect(agents.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => adminPost(`/admin/v1/companies/${company.id}/quick-replies`, { shortcut: 'oi', title: 'Oi', text: 'Oi' })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
  });
});

describe('teams with members and auto-assignment settings', () => {
  it('the operator replaces members and boxes, sets auto_assign and max_open_per_agent; GET /v1/teams shows them', async () => {
    const { company, auth } = await tenant();
    const other = await tenant();
    const setor = await api.createSetor(company.id);
    const team = await createTeam(company.id, 'Vendas');
    expect(team).toMatchObject({ auto_assign: false, max_open_per_agent: 10 });
    const ana = await createAgent(company.id, { name: 'Ana', email: 'ana@example.com', status: 'available' });
    const bia = await createAgent(company.id, { name: 'Bia', email: 'bia@example.com' });
    const alien = await createAgent(other.company.id, { name: 'Alien', email: 'alien@example.com' });

    told.length = 0;
    const patched = await adminPatch(`/admin/v1/teams/${team.id}`, { nome: 'Vendas SP', setor_ids: [setor.id], agent_ids: [bia.id, ana.id], auto_assign: true, max_open_per_agent: 3 });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      id: team.id,
      nome: 'Vendas SP',
      setor_ids: [setor.id],
      auto_assign: true,
      max_open_per_agent: 3,
      members: [
        { agent_id: ana.id, name: 'Ana', status: 'available', active: true },
        { agent_id: bia.id, name: 'Bia', status: 'offline', active: true },
      ],
    });
    // Only the available member can take queued tickets.
    expect(told).toEqual([{ companyId: company.id, agentId: ana.id }]);

    const replaced = await adminPatch(`/admin/v1/teams/${team.id}`, { agent_ids: [bia.id] });
    expect(replaced.body.data.members.map((m: { agent_id: string }) => m.agent_id)).toEqual([bia.id]);
    expect(replaced.body.data).toMatchObject({ auto_assign: true, max_open_per_agent: 3, setor_ids: [setor.id] });

    const listed = await request(api.app).get('/v1/teams').set(auth);
    expect(listed.status).toBe(200);
    expect(listed.body.data.items).toEqual([
      { id: team.id, nome: 'Vendas SP', setor_ids: [setor.id], members: [{ agent_id: bia.id, name: 'Bia', status: 'offline' }], auto_assign: true, max_open_per_agent: 3, created_at: expect.any(String) },
    ]);
    const adminList = await adminGet(`/admin/v1/companies/${company.id}/teams`);
    expect(adminList.body.data.items.map((t: { id: string }) => t.id)).toEqual([team.id]);
    expect((await adminGet(`/admin/v1/companies/${missing}/teams`)).status).toBe(404);

    const foreignAgent = await adminPatch(`/admin/v1/teams/${team.id}`, { agent_ids: [alien.id] });
    expect([foreignAgent.status, foreignAgent.body.error.details.agent_ids]).toEqual([400, [alien.id]]);
    const foreignSetor = await adminPatch(`/admin/v1/teams/${team.id}`, { setor_ids: [(await api.createSetor(other.company.id)).id] });
    expect(foreignSetor.status).toBe(400);
    expect((await adminPatch(`/admin/v1/teams/${team.id}`, { max_open_per_agent: 0 })).status).toBe(400);
    expect((await adminPatch(`/admin/v1/teams/${team.id}`, { max_open_per_agent: 1001 })).status).toBe(400);
    expect((await adminPatch(`/admin/v1/teams/${missing}`, { auto_assign: true })).status).toBe(404);
    expect((await adminPatch('/admin/v1/teams/nope', { auto_assign: true })).status).toBe(400);

    const noScope = await api.createKey(company.id, { scopes: ['tickets:write'] });
    expect((await request(api.app).get('/v1/teams').set({ Authorization: `Bearer ${noScope}` })).status).toBe(403);
    expect((await request(api.app).get('/v1/teams').set(other.auth)).body.data.items).toEqual([]);
  });
});

describe('quick replies', () => {
  it('the operator creates, edits and deletes quick replies; shortcuts are unique per scope; placeholders are checked', async () => {
    const { company, auth } = await tenant();
    const other = await tenant();
    const setor = await api.createSetor(company.id);
    const setor2 = await api.createSetor(company.id, { nome: 'Outra' });
    const create = (body: object, companyId = company.id) => adminPost(`/admin/v1/companies/${companyId}/quick-replies`, body);
    const hello = await create({ shortcut: 'oi', title: 'Saudação', text: 'Olá {{primeiro_nome}}, sou {{atendente}}. Protocolo {{ protocolo }}.' });
    expect(hello.status).toBe(201);
    expect(hello.body.data).toMatchObject({ shortcut: 'oi', setor_id: null, media_url: null, media_type: null, placeholders: ['primeiro_nome', 'atendente', 'protocolo'] });

    const dup = await create({ shortcut: 'oi', title: 'De novo', text: 'x' });
    expect([dup.status, dup.body.error.code, dup.body.error.details.quick_reply_id]).toEqual([409, 'CONFLICT', hello.body.data.id]);
    const inBox = await create({ shortcut: 'oi', title: 'Na caixa', text: 'Oi da caixa', setor_id: setor.id });
    expect(inBox.status).toBe(201);
    const media = await create({ shortcut: 'catalogo', title: 'Catálogo', media_url: 'https://cdn.example.com/c.pdf', media_type: 'document', setor_id: setor2.id });
    expect(media.status).toBe(201);
    expect((await create({ shortcut: 'oi', title: 'Outra empresa', text: 'x' }, other.company.id)).status).toBe(201);

    const unknown = await create({ shortcut: 'x', title: 'X', text: 'Olá {{cliente}}' });
    expect([unknown.status, unknown.body.error.details.placeholders]).toEqual([400, ['cliente']]);
    expect((await create({ shortcut: 'Maiúscula', title: 'X', text: 'x' })).status).toBe(400);
    expect((await create({ shortcut: 'a'.repeat(33), title: 'X', text: 'x' })).status).toBe(400);
    expect((await create({ shortcut: 'longo', title: 'X', text: 'x'.repeat(4097) })).status).toBe(400);
    expect((await create({ shortcut: 'vazio', title: 'X' })).status).toBe(400);
    expect((await create({ shortcut: 'midia', title: 'X', media_url: 'https://cdn.example.com/a.png' })).status).toBe(400);
    expect((await create({ shortcut: 'http', title: 'X', media_url: 'http://cdn.example.com/a.png', media_type: 'image' })).status).toBe(400);
    expect((await create({ shortcut: 'alheio', title: 'X', text: 'x', setor_id: (await api.createSetor(other.company.id)).id })).status).toBe(400);
    expect((await create({ shortcut: 'x', title: 'X', text: 'x' }, missing)).status).toBe(404);

    const list = async (query = '', headers = auth) => {
      const res = await request(api.app).get(`/v1/quick-replies${query}`).set(headers);
      expect(res.status).toBe(200);
      return res.body.data.items.map((r: { shortcut: string; setor_id: string | null }) => `${r.shortcut}${r.setor_id ? '@box' : ''}`);
    };
    expect(await list()).toEqual(['catalogo@box', 'oi', 'oi@box']);
    expect(await list(`?setor_id=${setor.id}`)).toEqual(['oi', 'oi@box']);
    expect(await list('?q=CATÁ')).toEqual(['catalogo@box']);
    expect(await list('', other.auth)).toEqual(['oi']);
    const full = await request(api.app).get(`/v1/quick-replies?setor_id=${setor2.id}`).set(auth);
    expect(full.body.data.items[0]).toEqual({
      id: media.body.data.id,
      shortcut: 'catalogo',
      title: 'Catálogo',
      text: null,
      media_url: 'https://cdn.example.com/c.pdf',
      media_type: 'document',
      setor_id: setor2.id,
      placeholders: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const noScope = await api.createKey(company.id, { scopes: ['tickets:write'] });
    expect((await request(api.app).get('/v1/quick-replies').set({ Authorization: `Bearer ${noScope}` })).status).toBe(403);

    const id = hello.body.data.id;
    const edited = await adminPatch(`/admin/v1/quick-replies/${id}`, { title: 'Oi!', text: 'Oi {{nome}}' });
    expect(edited.body.data).toMatchObject({ title: 'Oi!', text: 'Oi {{nome}}', placeholders: ['nome'] });
    const moved = await adminPatch(`/admin/v1/quick-replies/${id}`, { setor_id: setor.id });
    expect([moved.status, moved.body.data?.setor_id ?? moved.body.error.code]).toEqual([409, 'CONFLICT']);
    expect((await adminPatch(`/admin/v1/quick-replies/${id}`, { text: '{{x}}' })).status).toBe(400);
    expect((await adminPatch(`/admin/v1/quick-replies/${missing}`, { title: 'x' })).status).toBe(404);
    expect((await adminPatch('/admin/v1/quick-replies/nope', { title: 'x' })).status).toBe(400);
    const deleted = await request(api.app).delete(`/admin/v1/quick-replies/${id}`).set(api.adminAuth);
    expect(deleted.body.data).toEqual({ deleted: true, id });
    expect((await request(api.app).delete(`/admin/v1/quick-replies/${id}`).set(api.adminAuth)).status).toBe(404);
    expect(await list()).toEqual(['catalogo@box', 'oi@box']);
  });
});

describe('box ticket settings on PATCH /admin/v1/setores/:id', () => {
  it('stores closing message, CSAT, reopen window, assistant and default team, and shows them on the setor reads', async () => {
    const { company } = await tenant();
    const other = await tenant();
    const setor = await api.createSetor(company.id);
    const team = await createTeam(company.id, 'Suporte');
    const read = async () => (await adminGet(`/admin/v1/setores/${setor.id}`)).body.data;
    expect(await read()).toMatchObject({ closing_message: null, csat_enabled: false, csat_question: null, csat_thanks: null, reopen_window_minutes: 30, assistant_enabled: false, default_team_id: null });
    const settings = {
      closing_message: 'Obrigado, {{primeiro_nome}}! Protocolo {{protocolo}}.',
      csat_enabled: true,
      csat_question: 'Como foi o atendimento?',
      csat_thanks: 'Obrigado pela nota!',
      reopen_window_minutes: 60,
      assistant_enabled: true,
      default_team_id: team.id,
    };
    const patched = await adminPatch(`/admin/v1/setores/${setor.id}`, settings);
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject(settings);
    expect(await read()).toMatchObject(settings);
    const listed = await adminGet(`/admin/v1/companies/${company.id}/setores`);
    expect(listed.body.data.items[0]).toMatchObject(settings);

    // Omitted fields keep theirs; null clears.
    const cleared = await adminPatch(`/admin/v1/setores/${setor.id}`, { closing_message: null, default_team_id: null });
    expect(cleared.body.data).toMatchObject({ ...settings, closing_message: null, default_team_id: null });

    expect((await adminPatch(`/admin/v1/setores/${setor.id}`, { reopen_window_minutes: 10_081 })).status).toBe(400);
    expect((await adminPatch(`/admin/v1/setores/${setor.id}`, { reopen_window_minutes: -1 })).status).toBe(400);
    expect((await adminPatch(`/admin/v1/setores/${setor.id}`, { closing_message: 'x'.repeat(1025) })).status).toBe(400);
    const placeholder = await adminPatch(`/admin/v1/setores/${setor.id}`, { closing_message: 'Tchau {{cliente}}' });
    expect([placeholder.status, placeholder.body.error.details.field]).toEqual([400, 'closing_message']);
    const foreignTeam = await adminPatch(`/admin/v1/setores/${setor.id}`, { default_team_id: (await createTeam(other.company.id, 'X')).id });
    expect([foreignTeam.status, foreignTeam.body.error.details.field]).toEqual([400, 'default_team_id']);
    expect((await adminPatch(`/admin/v1/setores/${setor.id}`, { reopen_window_minutes: 0 })).body.data.reopen_window_minutes).toBe(0);
  });
});
