import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Clock, Repositories, createContact, newConversation, type Scope } from '@carteiro/core';
import { ManualClock } from '@carteiro/core/testing';
import type { ServiceRepositories } from '@carteiro/postgres';
import { ContainerModule } from 'inversify';
import request from 'supertest';
import { createTestApi, type TestApi } from '../testing/test-api.js';

// The list's sync order withholds rows younger than 5 s: the test moves a manual clock instead of waiting.
const clock = new ManualClock(new Date());
let api: TestApi;
let repos: ServiceRepositories;
beforeAll(async () => {
  api = await createTestApi({ overrides: [new ContainerModule(({ isBound, rebind }) => void (isBound(Clock) && rebind(Clock).toConstantValue(clock)))] });
  repos = api.container.get<ServiceRepositories>(Repositories);
});
afterAll(() => api.close());

const missing = '00000000-0000-4000-8000-000000000000';
let phoneSeq = 0;
const nextPhone = () => `+55119${(80000000 + (++phoneSeq * 7919) % 10000000).toString().padStart(8, '0')}`;

async function tenant(scopes: (Scope | '*')[] = ['tickets:read', 'tickets:write', 'crm:read', 'crm:write']) {
  const company = await api.createCompany({});
  const key = await api.createKey(company.id, { scopes });
  const setor = await api.createSetor(company.id, { nome: 'Vendas' });
  const auth = { Authorization: `Bearer ${key}` };
  const agent = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await request(api.app).post(`/admin/v1/companies/${company.id}/agents`).set(api.adminAuth).send({ name, email: `${name.toLowerCase()}-${randomUUID()}@example.com`, status: 'available', ...extra });
    expect(res.status).toBe(201);
    return res.body.data as { id: string };
  };
  const team = async (nome: string, patch: Record<string, unknown> = {}) => {
    const res = await request(api.app).post(`/admin/v1/companies/${company.id}/teams`).set(api.adminAuth).send({ nome });
    expect(res.status).toBe(201);
    if (Object.keys(patch).length > 0) expect((await request(api.app).patch(`/admin/v1/teams/${res.body.data.id}`).set(api.adminAuth).send(patch)).status).toBe(200);
    return res.body.data as { id: string };
  };
  /** A contact with a conversation on `setorId` (as a first-contact send or an inbound message leaves it). */
  const contact = async (name = 'Ana', setorId = setor.id, conversation = true) => {
    const c = createContact(randomUUID(), company.id, nextPhone(), name, clock.now());
    await repos.contacts.insert(c);
    if (conversation) {
      const conv = await repos.conversations.findOrCreate(newConversation(randomUUID(), company.id, setorId, c.id, clock.now()));
      await repos.conversations.touch(conv.id, 'inbound', clock.now());
    }
    return c;
  };
  const open = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const res = await request(api.app).post('/v1/tickets').set(auth).set(headers).send(body);
    return res;
  };
  const openFor = async (name = 'Ana', body: Record<string, unknown> = {}) => {
    const c = await contact(name);
    const res = await open({ client_id: c.id, ...body });
    expect(res.status).toBe(201);
    return { contact: c, ticket: res.body.data as { id: string; number: number; version: number; status: string; agent_id: string | null } };
  };
  return { company, setor, auth, agent, team, contact, open, openFor };
}

const events = (companyId: string, name: string) =>
  api.database.db.selectFrom('domain_events').select(['data', 'actor']).where('company_id', '=', companyId).where('event', '=', name).orderBy('seq').execute();

describe('tickets: open, read and scopes', () => {
  it('opens a ticket in the latest conversation, numbered per company, with conversation.created', async () => {
    const t = await tenant();
    const second = await api.createSetor(t.company.id, { nome: 'Suporte' });
    const ana = await t.contact('Ana');
    clock.advance(1000);
    await repos.conversations.touch((await repos.conversations.findOrCreate(newConversation(randomUUID(), t.company.id, second.id, ana.id, clock.now()))).id, 'inbound', clock.now());
    const res = await t.open({ client_id: ana.id, priority: 'high' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      number: 1,
      status: 'open',
      priority: 'high',
      setor_id: second.id,
      client_id: ana.id,
      contact: { id: ana.id, name: 'Ana', phone: ana.phone, ia_ativa: true },
      agent_id: null,
      source: 'api',
      tag_ids: [],
      reply_window: { open: true, open_until: null },
      rating_status: 'none',
      version: 1,
      reopened: false,
      tags: [],
      links: { crm_opportunities: [] },
      handoff: null,
    });
    const created = await events(t.company.id, 'conversation.created');
    expect(created.at(-1)?.data).toMatchObject({ ticketId: res.body.data.id, number: 1, status: 'open', source: 'api', contactId: ana.id, setorId: second.id });
    // By phone, on the named box; numbers go on per company.
    const byPhone = await t.open({ phone: ana.phone, setor_id: t.setor.id });
    expect([byPhone.status, byPhone.body.data.number, byPhone.body.data.setor_id]).toEqual([201, 2, t.setor.id]);
    const other = await tenant();
    expect((await other.openFor('Bia')).ticket.number).toBe(1);
  });

  it('answers 409 TICKET_ACTIVE with the ticket id, 422 NO_CONVERSATION, 404 for unknown references and 400 without a contact', async () => {
    const t = await tenant();
    const { contact, ticket } = await t.openFor('Ana');
    const again = await t.open({ client_id: contact.id });
    expect([again.status, again.body.error.code, again.body.error.details]).toEqual([409, 'TICKET_ACTIVE', { ticket_id: ticket.id }]);
    const lonely = await t.contact('Sem conversa', t.setor.id, false);
    expect((await t.open({ client_id: lonely.id })).body.error.code).toBe('NO_CONVERSATION');
    expect((await t.open({ client_id: lonely.id })).status).toBe(422);
    expect((await t.open({ phone: '+5511912345678' })).status).toBe(422);
    const otherSetor = await api.createSetor(t.company.id, { nome: 'Outra' });
    expect((await t.open({ client_id: contact.id, setor_id: otherSetor.id })).status).toBe(422);
    expect((await t.open({ client_id: missing })).status).toBe(404);
    expect((await t.open({ client_id: (await t.contact('X')).id, agent_id: missing })).status).toBe(404);
    expect((await t.open({ client_id: (await t.contact('Y')).id, team_id: missing })).status).toBe(404);
    expect((await t.open({})).status).toBe(400);
    expect((await t.open({ phone: 'abc' })).status).toBe(400);
  });

  it('replays an Idempotency-Key and reopens a ticket closed within 7 days (200 reopened: true)', async () => {
    const t = await tenant();
    const ana = await t.contact('Ana');
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await t.open({ client_id: ana.id }, key);
    const replay = await t.open({ client_id: ana.id }, key);
    expect([first.status, replay.status, replay.body.data.id, replay.body.meta]).toEqual([201, 201, first.body.data.id, { idempotent_replay: true }]);
    expect((await t.open({ client_id: ana.id, priority: 'low' }, key)).status).toBe(422);

    const id = first.body.data.id;
    expect((await request(api.app).patch(`/v1/tickets/${id}/status`).set(t.auth).send({ status: 'closed' })).status).toBe(200);
    const reopened = await t.open({ client_id: ana.id, reopen: true });
    expect([reopened.status, reopened.body.data.id, reopened.body.data.reopened, reopened.body.data.status, reopened.body.data.closed_at]).toEqual([200, id, true, 'open', null]);
    const moves = await events(t.company.id, 'conversation.status_changed');
    expect(moves.map((e) => [e.data.from, e.data.to])).toEqual([
      ['open', 'closed'],
      ['closed', 'open'],
    ]);
    // Without `reopen`, a new ticket beside the closed one.
    await request(api.app).patch(`/v1/tickets/${id}/status`).set(t.auth).send({ status: 'closed' });
    const fresh = await t.open({ client_id: ana.id });
    expect([fresh.status, fresh.body.data.id === id]).toEqual([201, false]);
  });

  it('refuses keys without the tickets scopes and hides other companies\' tickets', async () => {
    const t = await tenant();
    const { ticket } = await t.openFor('Ana');
    const none = { Authorization: `Bearer ${await api.createKey(t.company.id, { scopes: ['contacts:read'] })}` };
    const readOnly = { Authorization: `Bearer ${await api.createKey(t.company.id, { scopes: ['tickets:read'] })}` };
    const writeOnly = { Authorization: `Bearer ${await api.createKey(t.company.id, { scopes: ['tickets:write'] })}` };
    const id = ticket.id;
    const reads = [
      () => request(api.app).get('/v1/tickets'),
      () => request(api.app).get(`/v1/tickets/${id}`),
      () => request(api.app).get('/v1/queue'),
    ];
    const writes = [
      () => request(api.app).post('/v1/tickets').send({ client_id: missing }),
      () => request(api.app).patch(`/v1/tickets/${id}/status`).send({ status: 'pending' }),
      () => request(api.app).patch(`/v1/tickets/${id}/assignee`).send({ agent_id: null }),
      () => request(api.app).patch(`/v1/tickets/${id}/priority`).send({ priority: 'low' }),
      () => request(api.app).post(`/v1/tickets/${id}/tags`).send({ tag_ids: [missing] }),
      () => request(api.app).delete(`/v1/tickets/${id}/tags`).send({ tag_ids: [missing] }),
      () => request(api.app).post(`/v1/tickets/${id}/links`).send({ type: 'crm_opportunity', id: missing }),
      () => request(api.app).delete(`/v1/tickets/${id}/links/crm_opportunity/${missing}`),
      () => request(api.app).post(`/v1/tickets/${id}/handoff`).send({ summary: 's' }),
    ];
    for (const call of reads) {
      expect((await call().set(none)).status).toBe(403);
      expect((await call().set(writeOnly)).status).toBe(403);
    }
    for (const call of writes) {
      expect((await call().set(none)).status).toBe(403);
      expect((await call().set(readOnly)).status).toBe(403);
    }
    const other = await tenant();
    for (const call of [reads[1]!, ...writes.slice(1)]) expect((await call().set(other.auth)).status).toBe(404);
    expect((await request(api.app).get('/v1/tickets/not-a-uuid').set(t.auth)).status).toBe(404);
    const otherList = await request(api.app).get('/v1/tickets').set(other.auth);
    expect(otherList.body.data.items).toEqual([]);
  });
});

describe('tickets: list', () => {
  it('filters, pages by last activity with a cursor bound to its filters, and refuses limit > 100', async () => {
    const t = await tenant();
    const agent = await t.agent('Ana');
    const tickets = [];
    for (const name of ['Ana Lima', 'Bruno Reis', 'Carla Dias']) {
      clock.advance(1000);
      tickets.push((await t.openFor(name)).ticket);
    }
    await request(api.app).patch(`/v1/tickets/${tickets[0]!.id}/assignee`).set(t.auth).send({ agent_id: agent.id });
    await request(api.app).patch(`/v1/tickets/${tickets[1]!.id}/priority`).set(t.auth).send({ priority: 'urgent' });
    await request(api.app).patch(`/v1/tickets/${tickets[2]!.id}/status`).set(t.auth).send({ status: 'pending' });
    const list = async (query: string) => {
      const res = await request(api.app).get(`/v1/tickets?${query}`).set(t.auth);
      expect(res.status).toBe(200);
      return res.body.data as { items: { id: string }[]; next_cursor: string | null; has_more: boolean; limit: number };
    };
    const ids = (page: { items: { id: string }[] }) => page.items.map((i) => i.id);
    // The pending move is activity: Carla's ticket first.
    expect(ids(await list(''))).toEqual([tickets[2]!.id, tickets[1]!.id, tickets[0]!.id]);
    expect(ids(await list(`owner=${agent.id}`))).toEqual([tickets[0]!.id]);
    expect(ids(await list('owner=none&status=open'))).toEqual([tickets[1]!.id]);
    expect(ids(await list('status=pending'))).toEqual([tickets[2]!.id]);
    expect(ids(await list('priority=urgent,high'))).toEqual([tickets[1]!.id]);
    expect(ids(await list('q=bruno'))).toEqual([tickets[1]!.id]);
    expect(ids(await list(`q=${tickets[2]!.number}`))).toEqual([tickets[2]!.id]);
    expect(ids(await list(`setor_id=${t.setor.id}&status=closed`))).toEqual([]);

    const first = await list('limit=2');
    expect([ids(first), first.has_more, first.limit]).toEqual([[tickets[2]!.id, tickets[1]!.id], true, 2]);
    // A ticket that moves ahead of the cursor is not repeated.
    clock.advance(1000);
    await request(api.app).patch(`/v1/tickets/${tickets[1]!.id}/status`).set(t.auth).send({ status: 'pending' });
    const second = await list(`limit=2&cursor=${first.next_cursor}`);
    expect([ids(second), second.has_more, second.next_cursor]).toEqual([[tickets[0]!.id], false, null]);
    const foreign = await request(api.app).get(`/v1/tickets?limit=2&status=open&cursor=${first.next_cursor}`).set(t.auth);
    expect([foreign.status, foreign.body.error.details.field]).toEqual([400, 'cursor']);
    expect((await request(api.app).get('/v1/tickets?cursor=garbage').set(t.auth)).status).toBe(400);
    expect((await request(api.app).get('/v1/tickets?limit=101').set(t.auth)).status).toBe(400);
    expect((await request(api.app).get('/v1/tickets?status=gone').set(t.auth)).status).toBe(400);
  });

  it('syncs by update ascending: rows younger than 5 s withheld, next_cursor always set, changes seen again', async () => {
    const t = await tenant();
    const a = (await t.openFor('Ana')).ticket;
    const sync = async (cursor?: string) => {
      const res = await request(api.app).get(`/v1/tickets?sort=updated_asc&status=open,pending,snoozed,closed${cursor ? `&cursor=${cursor}` : ''}`).set(t.auth);
      expect(res.status).toBe(200);
      return res.body.data as { items: { id: string; status: string }[]; next_cursor: string };
    };
    const young = await sync();
    expect(young.items).toEqual([]);
    expect(typeof young.next_cursor).toBe('string');
    clock.advance(5001);
    const first = await sync(young.next_cursor);
    expect(first.items.map((i) => i.id)).toEqual([a.id]);
    const empty = await sync(first.next_cursor);
    expect([empty.items, typeof empty.next_cursor]).toEqual([[], 'string']);
    await request(api.app).patch(`/v1/tickets/${a.id}/status`).set(t.auth).send({ status: 'closed' });
    clock.advance(5001);
    const changed = await sync(empty.next_cursor);
    expect(changed.items.map((i) => [i.id, i.status])).toEqual([[a.id, 'closed']]);
  });
});

describe('tickets: status, assignee, priority', () => {
  it('moves through the state machine with If-Match, actors, changed: false and status_changed events', async () => {
    const t = await tenant();
    const agent = await t.agent('Ana');
    const { ticket } = await t.openFor('Ana');
    const patch = (body: object, headers: Record<string, string> = {}) => request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).set(headers).send(body);

    const soon = await patch({ status: 'snoozed', snoozed_until: new Date(clock.now().getTime() + 30_000).toISOString() });
    expect([soon.status, soon.body.error.details.field]).toEqual([400, 'snoozed_until']);
    const until = new Date(clock.now().getTime() + 3_600_000).toISOString();
    const snoozed = await patch({ status: 'snoozed', snoozed_until: until }, { 'X-Actor-User-Id': agent.id, 'If-Match': '"1"' });
    expect(snoozed.status).toBe(200);
    expect(snoozed.body.data).toMatchObject({ status: 'snoozed', snoozed_until: until, waiting_since: null, version: 2, changed: true });
    const stale = await patch({ status: 'open' }, { 'If-Match': '"1"' });
    expect([stale.status, stale.body.error.code]).toEqual([412, 'PRECONDITION_FAILED']);
    expect((await patch({ status: 'open' }, { 'X-Actor-User-Id': missing })).status).toBe(400);
    expect((await patch({ status: 'open' }, { 'If-Match': 'soon' })).status).toBe(400);
    const same = await patch({ status: 'snoozed', snoozed_until: until });
    expect([same.status, same.body.data.changed, same.body.data.version]).toEqual([200, false, 2]);

    const closed = await patch({ status: 'closed', close_reason: 'Resolvido' });
    expect(closed.body.data).toMatchObject({ status: 'closed', close_reason: 'Resolvido', changed: true, closing: { closing_message: 'none', rating_request: 'none' } });
    const refused = await patch({ status: 'pending' });
    expect([refused.status, refused.body.error.code, refused.body.error.details]).toEqual([409, 'INVALID_TRANSITION', { status: 'closed', allowed: ['open'] }]);

    const moves = await events(t.company.id, 'conversation.status_changed');
    expect(moves.map((e) => e.data)).toEqual([
      { conversationId: expect.any(String), ticketId: ticket.id, from: 'open', to: 'snoozed', snoozedUntil: until, reason: null },
      { conversationId: expect.any(String), ticketId: ticket.id, from: 'snoozed', to: 'closed', snoozedUntil: null, reason: 'Resolvido' },
    ]);
    expect(moves.map((e) => e.actor)).toEqual([
      { user_id: agent.id, source: 'api' },
      { user_id: null, source: 'api' },
    ]);
  });

  it('assigns and claims: 409 ALREADY_ASSIGNED, 404 for unknown or inactive agents, 409 TICKET_CLOSED, pending opens', async () => {
    const t = await tenant();
    const ana = await t.agent('Ana');
    const bia = await t.agent('Bia');
    const gone = await t.agent('Gone', { active: false });
    const team = await t.team('Vendas');
    const { ticket } = await t.openFor('Ana');
    const assign = (body: object) => request(api.app).patch(`/v1/tickets/${ticket.id}/assignee`).set(t.auth).send(body);
    await request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'pending' });

    const claimed = await assign({ agent_id: ana.id, claim: true });
    expect(claimed.body.data).toMatchObject({ agent_id: ana.id, status: 'open', changed: true });
    const taken = await assign({ agent_id: bia.id, claim: true });
    expect([taken.status, taken.body.error.code]).toEqual([409, 'ALREADY_ASSIGNED']);
    expect((await assign({ agent_id: ana.id, claim: true })).body.data.changed).toBe(false);
    expect((await assign({ agent_id: missing })).status).toBe(404);
    expect((await assign({ agent_id: gone.id })).status).toBe(404);
    expect((await assign({ team_id: missing })).status).toBe(404);
    const moved = await assign({ agent_id: bia.id, team_id: team.id });
    expect(moved.body.data).toMatchObject({ agent_id: bia.id, team_id: team.id });
    const assigned = await events(t.company.id, 'conversation.assigned');
    expect(assigned.map((e) => e.data)).toEqual([
      expect.objectContaining({ ticketId: ticket.id, agentId: ana.id, previousAgentId: null, teamId: null, by: 'api' }),
      expect.objectContaining({ ticketId: ticket.id, agentId: bia.id, previousAgentId: ana.id, teamId: team.id, previousTeamId: null, by: 'api' }),
    ]);
    await request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'closed' });
    const closed = await assign({ agent_id: ana.id });
    expect([closed.status, closed.body.error.code]).toEqual([409, 'TICKET_CLOSED']);
  });

  it('gives one owner to 20 concurrent claims', async () => {
    const t = await tenant();
    const agents = [];
    for (let i = 0; i < 20; i += 1) agents.push(await t.agent(`Agent${i}`));
    const { ticket } = await t.openFor('Ana');
    const answers = await Promise.all(agents.map((a) => request(api.app).patch(`/v1/tickets/${ticket.id}/assignee`).set(t.auth).send({ agent_id: a.id, claim: true })));
    const won = answers.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409 && r.body.error.code === 'ALREADY_ASSIGNED')).toHaveLength(19);
    const detail = await request(api.app).get(`/v1/tickets/${ticket.id}`).set(t.auth);
    expect(detail.body.data.agent_id).toBe(won[0]!.body.data.agent_id);
    expect(await events(t.company.id, 'conversation.assigned')).toHaveLength(1);
  });

  it('sets the priority; the same one is changed: false', async () => {
    const t = await tenant();
    const { ticket } = await t.openFor('Ana');
    const set = (priority: string | null) => request(api.app).patch(`/v1/tickets/${ticket.id}/priority`).set(t.auth).send({ priority });
    expect((await set('urgent')).body.data).toMatchObject({ priority: 'urgent', changed: true, version: 2 });
    expect((await set('urgent')).body.data).toMatchObject({ changed: false, version: 2 });
    expect((await set(null)).body.data.priority).toBeNull();
    expect((await set('extreme')).status).toBe(400);
  });
});

describe('tickets: tags, links and handoff', () => {
  it('tags idempotently; unknown tags are 404 with their ids and change nothing', async () => {
    const t = await tenant(['tickets:read', 'tickets:write', 'tags:write', 'tags:read']);
    const { ticket } = await t.openFor('Ana');
    const tag = async (name: string) => (await request(api.app).post('/v1/tags').set(t.auth).send({ name })).body.data.id as string;
    const vip = await tag('vip');
    const novo = await tag('novo');
    const add = (ids: string[]) => request(api.app).post(`/v1/tickets/${ticket.id}/tags`).set(t.auth).send({ tag_ids: ids });
    expect((await add([vip])).body.data).toEqual({ tag_ids: [vip], added: [vip], changed: true });
    expect((await add([vip])).body.data).toEqual({ tag_ids: [vip], added: [], changed: false });
    const unknown = await add([novo, missing]);
    expect([unknown.status, unknown.body.error.details.tag_ids]).toEqual([404, [missing]]);
    expect((await request(api.app).get(`/v1/tickets/${ticket.id}`).set(t.auth)).body.data.tag_ids).toEqual([vip]);
    await add([novo]);
    const removed = await request(api.app).delete(`/v1/tickets/${ticket.id}/tags?tag_ids=${vip}`).set(t.auth);
    expect(removed.body.data).toEqual({ tag_ids: [novo], removed: [vip], changed: true });
    const byBody = await request(api.app).delete(`/v1/tickets/${ticket.id}/tags`).set(t.auth).send({ tag_ids: [vip] });
    expect(byBody.body.data).toEqual({ tag_ids: [novo], removed: [], changed: false });
    expect((await request(api.app).delete(`/v1/tickets/${ticket.id}/tags`).set(t.auth)).status).toBe(400);
    const detail = await request(api.app).get(`/v1/tickets/${ticket.id}`).set(t.auth);
    expect(detail.body.data.tags).toEqual([{ id: novo, name: 'novo', color: null }]);
  });

  it('refuses a malformed id in ?tag_ids= with 400, as in the body, and changes nothing', async () => {
    const t = await tenant(['tickets:read', 'tickets:write', 'tags:write']);
    const { ticket } = await t.openFor('Ana');
    const vip = (await request(api.app).post('/v1/tags').set(t.auth).send({ name: 'vip' })).body.data.id as string;
    await request(api.app).post(`/v1/tickets/${ticket.id}/tags`).set(t.auth).send({ tag_ids: [vip] });
    for (const ids of ['bad', `${vip},`, `${vip},nope`]) {
      const answer = await request(api.app).delete(`/v1/tickets/${ticket.id}/tags?tag_ids=${ids}`).set(t.auth);
      expect([answer.status, answer.body.error.code, answer.body.error.details.field]).toEqual([400, 'VALIDATION_ERROR', 'tag_ids']);
    }
    const byBody = await request(api.app).delete(`/v1/tickets/${ticket.id}/tags`).set(t.auth).send({ tag_ids: ['bad'] });
    expect([byBody.status, byBody.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect((await request(api.app).get(`/v1/tickets/${ticket.id}`).set(t.auth)).body.data.tag_ids).toEqual([vip]);
    const unknown = await request(api.app).delete(`/v1/tickets/${ticket.id}/tags?tag_ids=${vip},${missing}`).set(t.auth);
    expect([unknown.status, unknown.body.error.details.tag_ids]).toEqual([404, [missing]]);
  });

  it('links CRM opportunities of the company and shows them in the detail', async () => {
    const t = await tenant();
    const { contact, ticket } = await t.openFor('Ana');
    const opp = await request(api.app).post('/v1/crm/opportunities').set(t.auth).send({ title: 'Site novo', client_id: contact.id, value: 4500 });
    expect(opp.status).toBe(201);
    const link = () => request(api.app).post(`/v1/tickets/${ticket.id}/links`).set(t.auth).send({ type: 'crm_opportunity', id: opp.body.data.id });
    const first = await link();
    expect([first.status, first.body.data.created]).toEqual([201, true]);
    expect((await link()).status).toBe(200);
    const detail = await request(api.app).get(`/v1/tickets/${ticket.id}`).set(t.auth);
    expect(detail.body.data.links.crm_opportunities).toEqual([
      { id: opp.body.data.id, title: 'Site novo', stage_id: opp.body.data.stage.id, value: 4500, linked_at: first.body.data.linked_at },
    ]);
    expect((await request(api.app).post(`/v1/tickets/${ticket.id}/links`).set(t.auth).send({ type: 'crm_opportunity', id: missing })).status).toBe(404);
    const other = await tenant();
    const foreign = await request(api.app).post('/v1/crm/opportunities').set(other.auth).send({ title: 'Outro', phone: '+5511955554444' });
    expect((await request(api.app).post(`/v1/tickets/${ticket.id}/links`).set(t.auth).send({ type: 'crm_opportunity', id: foreign.body.data.id })).status).toBe(404);
    const unlink = () => request(api.app).delete(`/v1/tickets/${ticket.id}/links/crm_opportunity/${opp.body.data.id}`).set(t.auth);
    expect((await request(api.app).delete(`/v1/tickets/${ticket.id}/links/contract/${opp.body.data.id}`).set(t.auth)).status).toBe(404);
    expect((await unlink()).status).toBe(200);
    expect((await unlink()).status).toBe(404);
  });

  it('hands off: open, summary pinned as a note, assistant paused, team auto-assignment with by: handoff', async () => {
    const t = await tenant();
    const team = await t.team('Suporte');
    const ana = await t.agent('Ana', { team_ids: [team.id] });
    expect((await request(api.app).patch(`/admin/v1/teams/${team.id}`).set(api.adminAuth).send({ auto_assign: true })).status).toBe(200);
    const { contact, ticket } = await t.openFor('Cliente');
    await request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'pending' });
    const res = await request(api.app).post(`/v1/tickets/${ticket.id}/handoff`).set(t.auth).send({ summary: 'Quer orçamento', team_id: team.id, priority: 'high' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'open', team_id: team.id, agent_id: ana.id, priority: 'high', handoff: { summary: 'Quer orçamento' }, changed: true });
    const note = await api.database.db.selectFrom('messages').select(['type', 'content', 'ticket_id']).where('ticket_id', '=', ticket.id).where('type', '=', 'note').execute();
    expect(note.map((n) => n.content)).toEqual([{ type: 'text', text: 'Quer orçamento' }]);
    expect((await repos.contacts.findById(t.company.id, contact.id))?.iaAtiva).toBe(false);
    const assigned = await events(t.company.id, 'conversation.assigned');
    expect(assigned.map((e) => [e.data.by, e.data.agentId, e.data.teamId, e.data.summary])).toEqual([
      ['handoff', null, team.id, 'Quer orçamento'],
      ['handoff', ana.id, team.id, 'Quer orçamento'],
    ]);
    await request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'closed' });
    const closed = await request(api.app).post(`/v1/tickets/${ticket.id}/handoff`).set(t.auth).send({ summary: 'x' });
    expect([closed.status, closed.body.error.code]).toEqual([409, 'INVALID_TRANSITION']);
    expect((await request(api.app).post(`/v1/tickets/${ticket.id}/handoff`).set(t.auth).send({})).status).toBe(400);
  });
});

describe('queue and auto-assignment', () => {
  it('orders the queue by priority then waiting time, with positions, totals and a cursor', async () => {
    const t = await tenant();
    const opened = [];
    for (const [name, priority] of [
      ['A', null],
      ['B', 'urgent'],
      ['C', 'low'],
      ['D', 'urgent'],
    ] as const) {
      clock.advance(1000);
      opened.push((await t.openFor(name, priority ? { priority } : {})).ticket);
    }
    clock.advance(10_000);
    const page = async (query: string) => (await request(api.app).get(`/v1/queue?${query}`).set(t.auth)).body.data;
    const first = await page('limit=3');
    expect(first.items.map((i: { ticket_id: string; position: number }) => [i.ticket_id, i.position])).toEqual([
      [opened[1]!.id, 1],
      [opened[3]!.id, 2],
      [opened[2]!.id, 3],
    ]);
    expect([first.total, first.oldest_wait_seconds, first.has_more, first.items[0].wait_seconds]).toEqual([4, 13, true, 12]);
    const second = await page(`limit=3&cursor=${first.next_cursor}`);
    expect(second.items.map((i: { ticket_id: string; position: number }) => [i.ticket_id, i.position])).toEqual([[opened[0]!.id, 4]]);
    expect((await page('priority=low')).items.map((i: { ticket_id: string }) => i.ticket_id)).toEqual([opened[2]!.id]);
    expect((await request(api.app).get('/v1/queue?limit=101').set(t.auth)).status).toBe(400);
  });

  it('auto-assigns a team-only assignment to the least loaded available member below the cap, and fills an agent who becomes available', async () => {
    const t = await tenant();
    const team = await t.team('Vendas');
    const ana = await t.agent('Ana', { team_ids: [team.id] });
    const bia = await t.agent('Bia', { team_ids: [team.id], status: 'offline' });
    expect((await request(api.app).patch(`/admin/v1/teams/${team.id}`).set(api.adminAuth).send({ auto_assign: true, max_open_per_agent: 1 })).status).toBe(200);
    const toTeam = async (name: string) => {
      const { ticket } = await t.openFor(name);
      return (await request(api.app).patch(`/v1/tickets/${ticket.id}/assignee`).set(t.auth).send({ team_id: team.id })).body.data as { id: string; agent_id: string | null };
    };
    const first = await toTeam('Um');
    expect(first.agent_id).toBe(ana.id);
    // Ana is at the cap and Bia is offline: the next one waits in the queue.
    const second = await toTeam('Dois');
    expect(second.agent_id).toBeNull();
    const queued = await request(api.app).get(`/v1/queue?team_id=${team.id}`).set(t.auth);
    expect(queued.body.data.items.map((i: { ticket_id: string }) => i.ticket_id)).toEqual([second.id]);
    expect((await request(api.app).patch(`/v1/agents/${bia.id}/status`).set(t.auth).send({ status: 'available' })).status).toBe(200);
    expect((await request(api.app).get(`/v1/tickets/${second.id}`).set(t.auth)).body.data.agent_id).toBe(bia.id);
    const auto = await events(t.company.id, 'conversation.assigned');
    expect(auto.filter((e) => e.data.by === 'auto').map((e) => e.data.agentId)).toEqual([ana.id, bia.id]);
  });
});
