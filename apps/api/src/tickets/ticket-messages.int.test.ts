import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { newTicket } from '@carteiro/core';
import { createTestApi, type TestApi } from '../testing/test-api.js';
import { ticketTenant } from '../testing/ticket-reply-fixtures.js';

describe('ticket timeline, replies, notes and ratings over HTTP', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(() => api.close());

  const balanceOf = async (companyId: string) => (await request(api.app).get(`/admin/v1/companies/${companyId}`).set(api.adminAuth)).body.data.avulso_balance;
  const outboxTo = async (to: string) => (await request(api.app).get(`/admin/v1/simulator/messages?to=${encodeURIComponent(to)}`).set(api.adminAuth)).body.data.items as { text: string | null }[];

  it('a public reply is sent on the ticket box and charged; notes are stored only; the timeline pages both ways', async () => {
    const t = await ticketTenant(api, { company: { modality: 'avulso', avulso_balance: 10 } });
    const { ticket, phone } = await t.openTicket();
    const before = await balanceOf(t.company.id);
    const replied = await request(api.app)
      .post(`/v1/tickets/${ticket.id}/messages`)
      .set(t.auth)
      .set('X-Actor-User-Id', t.agent.id)
      .send({ message: { text: 'Olá, Ana! Em que posso ajudar?' } });
    expect(replied.status).toBe(201);
    expect(replied.body.data).toMatchObject({
      ticket_id: ticket.id,
      type: 'message',
      direction: 'outbound',
      author: { type: 'agent', id: t.agent.id },
      content: { type: 'text', text: 'Olá, Ana! Em que posso ajudar?' },
      status: 'sent',
      activity: null,
    });
    expect(await balanceOf(t.company.id)).toBe(before - 1);
    expect((await outboxTo(phone)).map((m) => m.text)).toContain('Olá, Ana! Em que posso ajudar?');

    const note = await request(api.app).post(`/v1/tickets/${ticket.id}/messages`).set(t.auth).send({ message: { text: 'ligar amanhã' }, private: true });
    expect(note.status).toBe(201);
    expect(note.body.data).toMatchObject({ type: 'note', author: { type: 'api', id: null }, content: { text: 'ligar amanhã' } });
    expect(await balanceOf(t.company.id)).toBe(before - 1);

    // The ticket stopped waiting: the reply was its first response; its status did not change.
    const detail = await t.uow.transaction((repos) => repos.tickets.findById(t.company.id, ticket.id));
    expect(detail).toMatchObject({ status: 'open', waitingSince: null });
    expect(detail!.firstResponseAt).not.toBeNull();

    const page1 = await request(api.app).get(`/v1/tickets/${ticket.id}/messages?limit=1`).set(t.auth);
    expect(page1.status).toBe(200);
    expect(page1.body.data.items.map((i: { type: string }) => i.type)).toEqual(['note']);
    expect(page1.body.data).toMatchObject({ limit: 1, has_more: true });
    const page2 = await request(api.app).get(`/v1/tickets/${ticket.id}/messages?limit=1&cursor=${page1.body.data.next_cursor}`).set(t.auth);
    expect(page2.body.data.items.map((i: { type: string }) => i.type)).toEqual(['message']);
    expect(page2.body.data).toMatchObject({ has_more: false, next_cursor: null });
    const asc = await request(api.app).get(`/v1/tickets/${ticket.id}/messages?order=asc`).set(t.auth);
    expect(asc.body.data.items.map((i: { type: string }) => i.type)).toEqual(['message', 'note']);
    // The conversation holds the first contact too (sent before the ticket existed).
    const conversation = await request(api.app).get(`/v1/tickets/${ticket.id}/messages?scope=conversation&order=asc`).set(t.auth);
    expect(conversation.body.data.items).toHaveLength(3);
    expect(conversation.body.data.items[0].ticket_id).toBeNull();
    // A cursor of another order, a limit above 100: 400.
    expect((await request(api.app).get(`/v1/tickets/${ticket.id}/messages?order=asc&cursor=${page1.body.data.next_cursor}`).set(t.auth)).status).toBe(400);
    expect((await request(api.app).get(`/v1/tickets/${ticket.id}/messages?limit=101`).set(t.auth)).status).toBe(400);

    const events = await api.database.db.selectFrom('domain_events').select(['data', 'actor']).where('company_id', '=', t.company.id).where('event', '=', 'message.sent').execute();
    const replyEvent = events.find((e) => (e.data as Record<string, unknown>).messageId === replied.body.data.id);
    expect(replyEvent?.data).toMatchObject({ ticketId: ticket.id });
    expect(replyEvent?.actor).toMatchObject({ user_id: t.agent.id });
  });

  it('a /v1/messages send to the contact joins the box active ticket', async () => {
    const t = await ticketTenant(api);
    const { ticket, contactId } = await t.openTicket();
    const sent = await request(api.app).post('/v1/messages').set(t.auth).send({ client_id: contactId, setor_id: t.setor.id, message: { text: 'pelo /v1/messages' } });
    expect(sent.status).toBe(201);
    const timeline = await request(api.app).get(`/v1/tickets/${ticket.id}/messages`).set(t.auth);
    expect(timeline.body.data.items[0]).toMatchObject({ id: sent.body.data.message_id, ticket_id: ticket.id, author: { type: 'api', id: null } });
  });

  it('refuses: a closed ticket 409 TICKET_CLOSED (a note still goes), quick_reply_id with text 400, unknown author 400, a provider failure 502 refunded', async () => {
    const t = await ticketTenant(api, { company: { modality: 'avulso', avulso_balance: 10 } });
    const { ticket } = await t.openTicket();
    const closed = await request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'closed', send_closing_message: false, request_rating: false });
    expect(closed.status).toBe(200);
    const before = await balanceOf(t.company.id);
    const refused = await request(api.app).post(`/v1/tickets/${ticket.id}/messages`).set(t.auth).send({ message: { text: 'oi' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('TICKET_CLOSED');
    expect((await request(api.app).post(`/v1/tickets/${ticket.id}/messages`).set(t.auth).send({ message: { text: 'nota' }, private: true })).status).toBe(201);
    expect(await balanceOf(t.company.id)).toBe(before);

    const open = await t.openTicket('Bruno');
    const both = await request(api.app).post(`/v1/tickets/${open.ticket.id}/messages`).set(t.auth).send({ message: { text: 'oi' }, quick_reply_id: crypto.randomUUID() });
    expect(both.status).toBe(400);
    // A quick reply with a media of its own, and a media in the message: one of them would be dropped.
    const catalogue = await request(api.app)
      .post(`/admin/v1/companies/${t.company.id}/quick-replies`)
      .set(api.adminAuth)
      .send({ shortcut: 'catalogo', title: 'Catálogo', media_url: 'https://cdn.example.com/c.pdf', media_type: 'document' })
      .expect(201);
    const twoMedia = await request(api.app)
      .post(`/v1/tickets/${open.ticket.id}/messages`)
      .set(t.auth)
      .send({ message: { media_url: 'https://cdn.example.com/a.png', media_type: 'image' }, quick_reply_id: catalogue.body.data.id });
    expect([twoMedia.status, twoMedia.body.error.details.field]).toEqual([400, 'message.media_url']);
    const stranger = await request(api.app).post(`/v1/tickets/${open.ticket.id}/messages`).set(t.auth).set('X-Actor-User-Id', crypto.randomUUID()).send({ message: { text: 'oi' } });
    expect(stranger.status).toBe(400);
    // A malformed header is named as it is sent: the header's name, nothing appended.
    const malformed = await request(api.app).post(`/v1/tickets/${open.ticket.id}/messages`).set(t.auth).set('X-Actor-User-Id', 'not-a-uuid').send({ message: { text: 'oi' } });
    expect([malformed.status, malformed.body.error.details.field]).toEqual([400, 'X-Actor-User-Id']);

    // The simulator's …0004 numbers fail with a provider error.
    const failing = await t.uow.transaction(async (repos) => {
      const [contact] = await repos.contacts.ensureMany(t.company.id, [{ phone: '+5511987650004', name: 'Falha' }], { newId: () => crypto.randomUUID() }, new Date());
      const conversation = await repos.conversations.findOrCreate({ id: crypto.randomUUID(), companyId: t.company.id, setorId: t.setor.id, contactId: contact!.id, lastInboundAt: null, lastOutboundAt: null, createdAt: new Date(), updatedAt: new Date() });
      const created = newTicket({ id: crypto.randomUUID(), companyId: t.company.id, number: await repos.tickets.nextNumber(t.company.id), status: 'open', setorId: t.setor.id, contactId: contact!.id, conversationId: conversation.id, source: 'api' }, new Date());
      await repos.tickets.insert(created);
      return created;
    });
    const balance = await balanceOf(t.company.id);
    const failed = await request(api.app).post(`/v1/tickets/${failing.id}/messages`).set(t.auth).send({ message: { text: 'oi' } });
    expect(failed.status).toBe(502);
    expect(await balanceOf(t.company.id)).toBe(balance);
    const timeline = await request(api.app).get(`/v1/tickets/${failing.id}/messages`).set(t.auth);
    expect(timeline.body.data.items[0]).toMatchObject({ status: 'failed', error_code: 'TEMP_SERVER_ERROR' });
  });

  it('an unknown body field is 400 and sends nothing: a misspelt `private` never becomes a public reply; a rating too', async () => {
    const t = await ticketTenant(api, { company: { modality: 'avulso', avulso_balance: 10 } });
    const { ticket, phone } = await t.openTicket();
    const before = await balanceOf(t.company.id);
    const typo = await request(api.app).post(`/v1/tickets/${ticket.id}/messages`).set(t.auth).send({ message: { text: 'só para a equipe' }, privat: true });
    expect([typo.status, typo.body.error.code, typo.body.error.details.field]).toEqual([400, 'VALIDATION_ERROR', 'privat']);
    expect((await outboxTo(phone)).filter((m) => m.text === 'só para a equipe')).toHaveLength(0);
    expect(await balanceOf(t.company.id)).toBe(before);
    expect((await request(api.app).get(`/v1/tickets/${ticket.id}/messages`).set(t.auth)).body.data.items.map((i: { content: { text: string } }) => i.content.text)).not.toContain('só para a equipe');

    await request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'closed', send_closing_message: false, request_rating: false }).expect(200);
    const rating = await request(api.app).post(`/v1/tickets/${ticket.id}/rating`).set(t.auth).send({ score: 4, coment: 'Bom' });
    expect([rating.status, rating.body.error.code, rating.body.error.details.field]).toEqual([400, 'VALIDATION_ERROR', 'coment']);
    expect((await request(api.app).get(`/v1/tickets/${ticket.id}`).set(t.auth)).body.data.rating.score).toBeNull();
  });

  it('a box without a connected instance answers 404 and charges nothing', async () => {
    const t = await ticketTenant(api, { company: { modality: 'avulso', avulso_balance: 10 } });
    const { ticket } = await t.openTicket();
    await api.database.db.updateTable('channel_instances').set({ status: 'disconnected' }).where('setor_id', '=', t.setor.id).execute();
    const before = await balanceOf(t.company.id);
    const res = await request(api.app).post(`/v1/tickets/${ticket.id}/messages`).set(t.auth).send({ message: { text: 'oi' } });
    expect(res.status).toBe(404);
    expect(await balanceOf(t.company.id)).toBe(before);
  });

  it('an Idempotency-Key repeats the first answer and sends once', async () => {
    const t = await ticketTenant(api, { company: { modality: 'avulso', avulso_balance: 10 } });
    const { ticket, phone } = await t.openTicket();
    const send = () => request(api.app).post(`/v1/tickets/${ticket.id}/messages`).set(t.auth).set('Idempotency-Key', 'reply-1').send({ message: { text: 'uma vez' } });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.meta).toEqual({ idempotent_replay: true });
    expect((await outboxTo(phone)).filter((m) => m.text === 'uma vez')).toHaveLength(1);
    const other = await request(api.app).post(`/v1/tickets/${ticket.id}/messages`).set(t.auth).set('Idempotency-Key', 'reply-1').send({ message: { text: 'outra' } });
    expect(other.status).toBe(422);
  });

  it('POST rating: closed tickets only, same again unchanged, If-Match; conversation.rated', async () => {
    const t = await ticketTenant(api);
    const { ticket } = await t.openTicket();
    const early = await request(api.app).post(`/v1/tickets/${ticket.id}/rating`).set(t.auth).send({ score: 5 });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('INVALID_TRANSITION');
    await request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'closed', send_closing_message: false, request_rating: false }).expect(200);
    const rated = await request(api.app).post(`/v1/tickets/${ticket.id}/rating`).set(t.auth).send({ score: 4, comment: 'Bom' });
    expect(rated.status).toBe(200);
    expect(rated.body.data).toMatchObject({ ticket_id: ticket.id, rating_status: 'rated', rating: { score: 4, comment: 'Bom', source: 'api' }, agent_id: t.agent.id, changed: true });
    const same = await request(api.app).post(`/v1/tickets/${ticket.id}/rating`).set(t.auth).send({ score: 4, comment: 'Bom' });
    expect(same.body.data.changed).toBe(false);
    const stale = await request(api.app).post(`/v1/tickets/${ticket.id}/rating`).set(t.auth).set('If-Match', `"${rated.body.data.version - 1}"`).send({ score: 5 });
    expect(stale.status).toBe(412);
    expect((await request(api.app).post(`/v1/tickets/${ticket.id}/rating`).set(t.auth).send({ score: 6 })).status).toBe(400);
    expect((await request(api.app).post(`/v1/tickets/${ticket.id}/rating`).set(t.auth).send({ score: 3, comment: 'x'.repeat(501) })).status).toBe(400);
    const events = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', t.company.id).where('event', '=', 'conversation.rated').execute();
    expect(events.map((e) => (e.data as Record<string, unknown>).score)).toEqual([4]);

    const report = await request(api.app).get('/v1/ratings').set(t.auth);
    expect(report.status).toBe(200);
    expect(report.body.data.summary).toMatchObject({ responded: 1, average: 4, csat_percent: 100, distribution: { '1': 0, '2': 0, '3': 0, '4': 1, '5': 0 } });
    expect(report.body.data.ranking).toEqual([{ agent_id: t.agent.id, name: 'Carla Souza', responded: 1, average: 4, csat_percent: 100 }]);
    expect(report.body.data.recent[0]).toMatchObject({ ticket_id: ticket.id, score: 4, comment: 'Bom' });
    const other = await request(api.app).get(`/v1/ratings?agent_id=${crypto.randomUUID()}`).set(t.auth);
    expect(other.body.data.summary).toMatchObject({ responded: 0, average: null });
    expect((await request(api.app).get('/v1/ratings?from=2020-01-01T00:00:00Z').set(t.auth)).status).toBe(400);
  });

  it('scopes: 403 without tickets:read, tickets:write or reports:read', async () => {
    const t = await ticketTenant(api);
    const { ticket } = await t.openTicket();
    const readOnly = { Authorization: `Bearer ${await api.createKey(t.company.id, { scopes: ['tickets:read'], mode: 'live' })}` };
    const none = { Authorization: `Bearer ${await api.createKey(t.company.id, { scopes: ['messages:write'], mode: 'live' })}` };
    expect((await request(api.app).get(`/v1/tickets/${ticket.id}/messages`).set(none)).status).toBe(403);
    expect((await request(api.app).get(`/v1/tickets/${ticket.id}/messages`).set(readOnly)).status).toBe(200);
    expect((await request(api.app).post(`/v1/tickets/${ticket.id}/messages`).set(readOnly).send({ message: { text: 'x' }, private: true })).status).toBe(403);
    expect((await request(api.app).post(`/v1/tickets/${ticket.id}/rating`).set(readOnly).send({ score: 5 })).status).toBe(403);
    expect((await request(api.app).get('/v1/ratings').set(readOnly)).status).toBe(403);
  });

  it("tenancy: another company's ticket (and a malformed id) is 404", async () => {
    const a = await ticketTenant(api);
    const b = await ticketTenant(api);
    const { ticket } = await a.openTicket();
    expect((await request(api.app).get(`/v1/tickets/${ticket.id}/messages`).set(b.auth)).status).toBe(404);
    expect((await request(api.app).post(`/v1/tickets/${ticket.id}/messages`).set(b.auth).send({ message: { text: 'x' }, private: true })).status).toBe(404);
    expect((await request(api.app).post(`/v1/tickets/${ticket.id}/rating`).set(b.auth).send({ score: 5 })).status).toBe(404);
    expect((await request(api.app).get('/v1/tickets/not-a-uuid/messages').set(a.auth)).status).toBe(404);
    // Another company's agent as author is unknown here: 400.
    expect((await request(api.app).post(`/v1/tickets/${ticket.id}/messages`).set(a.auth).set('X-Actor-User-Id', b.agent.id).send({ message: { text: 'x' }, private: true })).status).toBe(400);
    const report = await request(api.app).get('/v1/ratings').set(b.auth);
    expect(report.body.data.summary.requested).toBe(0);
  });
});
