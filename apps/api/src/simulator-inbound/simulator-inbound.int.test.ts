import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { sql } from 'kysely';
import { ReceiveInboundMessage, transition, ticketDecider, UnitOfWork, type InboundBatching, type Ticket } from '@carteiro/core';
import type { ServiceUnitOfWork } from '@carteiro/postgres';
import { createTestApi, type TestApi } from '../testing/test-api.js';

/**
 * POST /admin/v1/simulator/inbound and /receipts on PostgreSQL (conversations.md §3, §10): one
 * transaction per message under the contact lock, tickets opened once, provider ids deduplicated,
 * rating replies, and receipts that only move forward.
 */
describe('simulator inbound and receipts', () => {
  let api: TestApi;
  const authed = (key: string) => ({ Authorization: `Bearer ${key}` });
  const inbound = (body: Record<string, unknown>) => request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send(body);

  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => api?.close());

  function tenant() {
    return api.createTenant({ settings: { company_rpm: 10_000 }, key: { mode: 'live', rpm: 10_000 } });
  }

  /** Moves a ticket through the decider, as the ticket routes do. */
  async function move(companyId: string, ticketId: string, command: Record<string, unknown>): Promise<Ticket> {
    const uow = api.container.get<ServiceUnitOfWork>(UnitOfWork);
    return uow.transaction(async (repos) => {
      const ticket = (await repos.tickets.lockById(companyId, ticketId))!;
      const { state } = transition(ticketDecider, ticket, { at: new Date(), ...command } as never);
      const next = { ...state!, version: ticket.version + 1 };
      await repos.tickets.save(next, ticket.version);
      return next;
    });
  }

  const count = async (table: string, where: string, value: string) =>
    Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${sql.ref(where)} = ${value}`.execute(api.database.db)).rows[0]!.n);

  it('20 concurrent messages from one new number: one contact, one conversation, one active ticket, 20 messages', async () => {
    const { company, setor } = await tenant();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => inbound({ setor_id: setor.id, from: i % 2 === 0 ? '+5511987650777' : '+551187650777', text: `Mensagem ${i}` })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.body.data.client_id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.data.ticket_id)).size).toBe(1);
    expect(answers.filter((a) => a.body.data.ticket_created)).toHaveLength(1);
    expect(answers.filter((a) => a.body.data.contact_created)).toHaveLength(1);
    expect(await count('contacts', 'company_id', company.id)).toBe(1);
    expect(await count('conversations', 'company_id', company.id)).toBe(1);
    expect(await count('tickets', 'company_id', company.id)).toBe(1);
    const ticketId = answers[0]!.body.data.ticket_id as string;
    expect(await count('messages', 'ticket_id', ticketId)).toBe(20);
    const { rows } = await sql<{ event: string; n: string }>`
      SELECT event, count(*) AS n FROM domain_events WHERE company_id = ${company.id} GROUP BY event ORDER BY event`.execute(api.database.db);
    expect(rows.map((r) => [r.event, Number(r.n)])).toEqual([
      ['contact.created', 1],
      ['conversation.created', 1],
      ['message.received', 20],
    ]);
  });

  it('a repeated provider_message_id is ignored, even concurrently; name, media and option are taken', async () => {
    const { company, setor } = await tenant();
    const body = { setor_id: setor.id, from: '+5511987650778', text: 'Oi', name: 'Maria', provider_message_id: 'wamid.abc' };
    const answers = await Promise.all([inbound(body), inbound(body), inbound(body)]);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(answers.filter((a) => a.body.data.duplicate)).toHaveLength(2);
    expect(new Set(answers.map((a) => a.body.data.message_id)).size).toBe(1);
    expect(await count('messages', 'company_id', company.id)).toBe(1);
    const media = await inbound({ setor_id: setor.id, from: '+5511987650778', media_url: 'https://cdn.example.com/foto.jpg', media_type: 'image', text: 'Veja', provider_message_id: 'wamid.def' });
    expect(media.body.data).toMatchObject({ duplicate: false, ticket_created: false, ticket_status: 'open', rating_recorded: false });
    const contact = await request(api.app).get(`/v1/contacts/${media.body.data.client_id}`).set(authed(await api.createKey(company.id)));
    expect(contact.body.data.name).toBe('Maria');
    const stored = await api.database.db.selectFrom('messages').select(['content', 'direction', 'status', 'provider_message_id']).where('id', '=', media.body.data.message_id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ direction: 'inbound', status: 'received', provider_message_id: 'wamid.def', content: { type: 'media', text: 'Veja', media: { url: 'https://cdn.example.com/foto.jpg', mediaType: 'image' } } });
    expect((await inbound({ setor_id: setor.id, from: '+5511987650778' })).status).toBe(400);
  });

  it('a rating reply (option csat_5) within 24 h of the request is recorded on the closed ticket; nothing reopens', async () => {
    const { company, setor } = await tenant();
    const settings = await request(api.app).patch(`/admin/v1/setores/${setor.id}`).set(api.adminAuth).send({ csat_enabled: true, csat_thanks: 'Obrigado pela nota, {{primeiro_nome}}!' });
    expect(settings.status).toBe(200);
    const first = (await inbound({ setor_id: setor.id, from: '+5511987650779', text: 'Oi', name: 'Rita' })).body.data;
    await move(company.id, first.ticket_id, { type: 'changeStatus', to: 'closed' });
    await move(company.id, first.ticket_id, { type: 'requestRating' });
    const reply = await inbound({ setor_id: setor.id, from: '+5511987650779', text: 'Excelente', option_id: 'csat_5' });
    expect(reply.body.data).toMatchObject({ ticket_id: first.ticket_id, ticket_status: 'closed', rating_recorded: true, ticket_created: false, ticket_reopened: false });
    const ticket = await api.database.db.selectFrom('tickets').select(['status', 'rating_status', 'rating_score', 'rating_source']).where('id', '=', first.ticket_id).executeTakeFirstOrThrow();
    expect(ticket).toEqual({ status: 'closed', rating_status: 'rated', rating_score: 5, rating_source: 'reply' });
    const rated = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', company.id).where('event', '=', 'conversation.rated').execute();
    expect(rated.map((e) => e.data)).toEqual([expect.objectContaining({ ticketId: first.ticket_id, score: 5, source: 'reply' })]);
    // The thanks is queued once, in the same transaction, as an automatic ticket message (sent by the worker).
    const sends = await sql<{ kind: string; status: string }>`SELECT kind, status FROM ticket_sends WHERE ticket_id = ${first.ticket_id}`.execute(api.database.db);
    expect(sends.rows).toEqual([{ kind: 'csat_thanks', status: 'queued' }]);
    const thanks = await api.database.db.selectFrom('messages').select(['content', 'status', 'direction']).where('ticket_id', '=', first.ticket_id).where('direction', '=', 'outbound').execute();
    expect(thanks).toEqual([{ content: { type: 'text', text: 'Obrigado pela nota, Rita!' }, status: 'pending', direction: 'outbound' }]);
    // The same rating again changes nothing and queues nothing more.
    expect((await inbound({ setor_id: setor.id, from: '+5511987650779', text: 'Excelente', option_id: 'csat_5' })).body.data.rating_recorded).toBe(true);
    expect((await sql`SELECT 1 FROM ticket_sends WHERE ticket_id = ${first.ticket_id}`.execute(api.database.db)).rows).toHaveLength(1);
  });

  it('receipts: a read first records delivered and read once each, never backwards, for the simulator id or the message id', async () => {
    const { company, key } = await tenant();
    const sent = await request(api.app).post('/v1/messages').set(authed(key)).send({ phone: '+5511955557001', message: { text: 'Oi' } });
    expect(sent.status).toBe(201);
    const messageId = sent.body.data.message_id as string;
    const item = (await request(api.app).get('/admin/v1/simulator/messages').query({ to: '+5511955557001' }).set(api.adminAuth)).body.data.items[0];
    const receipt = (body: Record<string, unknown>) => request(api.app).post('/admin/v1/simulator/receipts').set(api.adminAuth).send(body);
    const read = await receipt({ message_id: item.id, status: 'read' });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ message_id: messageId, kind: 'message', changed: ['delivered', 'read'] });
    expect((await receipt({ message_id: messageId, status: 'delivered' })).body.data.changed).toEqual([]);
    expect((await receipt({ message_id: messageId, status: 'read' })).body.data.changed).toEqual([]);
    const events = await api.database.db.selectFrom('domain_events').select(['event', 'data']).where('company_id', '=', company.id).where('event', 'in', ['message.delivered', 'message.read']).orderBy('occurred_at').execute();
    expect(events.map((e) => e.event).sort()).toEqual(['message.delivered', 'message.read']);
    expect(events.find((e) => e.event === 'message.read')!.data).toMatchObject({ messageId, campaignId: null, detailId: messageId, status: 'read', providerMessageId: item.id });
    const row = await api.database.db.selectFrom('messages').select(['status', 'delivered_at', 'read_at']).where('id', '=', messageId).executeTakeFirstOrThrow();
    expect(row.status).toBe('read');
    expect(row.delivered_at).not.toBeNull();
    expect((await receipt({ message_id: 'nope', status: 'read' })).status).toBe(404);
    expect((await receipt({ message_id: messageId, status: 'failed' })).status).toBe(400);
  });

  it('receipts: a private note of a ticket is never sent, so no receipt applies to it (404)', async () => {
    const { setor, auth } = await tenant();
    const opened = await inbound({ setor_id: setor.id, from: '+5511955557002', text: 'Oi' });
    expect(opened.status).toBe(201);
    const note = await request(api.app).post(`/v1/tickets/${opened.body.data.ticket_id}/messages`).set(auth).send({ message: { text: 'nota interna' }, private: true });
    expect(note.status).toBe(201);
    const receipt = await request(api.app).post('/admin/v1/simulator/receipts').set(api.adminAuth).send({ message_id: note.body.data.id, status: 'read' });
    expect([receipt.status, receipt.body.error?.code]).toEqual([404, 'NOT_FOUND']);
    const row = await api.database.db.selectFrom('messages').select(['status', 'read_at']).where('id', '=', note.body.data.id).executeTakeFirstOrThrow();
    expect(row.read_at).toBeNull();
  });
});

describe('simulator inbound with pipelined groups (INBOUND_HOLD_MS=2)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ env: { INBOUND_HOLD_MS: '2' } });
  });
  afterAll(async () => api?.close());

  it('the setting reaches the use case, and eight senders writing again as soon as answered get the answers of messages alone', async () => {
    const batching = (api.container.get(ReceiveInboundMessage) as unknown as { batching: InboundBatching }).batching;
    expect(batching.pipelined?.holdMs).toBe(2);
    const company = await api.createCompany({ company_rpm: 10_000 });
    const setor = await api.createSetor(company.id);
    await api.connectSetor(company.id, setor.id);
    const sender = async (n: number) => {
      const answers: { ticket_id: string; client_id: string; contact_created: boolean; ticket_created: boolean }[] = [];
      for (let i = 0; i < 4; i += 1) {
        const res = await request(api.app).post('/admin/v1/simulator/inbound').set(api.adminAuth).send({ setor_id: setor.id, from: `+55119876504${n}0`, text: `Oi ${i}` });
        expect(res.status).toBe(201);
        answers.push(res.body.data);
      }
      return answers;
    };
    const all = await Promise.all(Array.from({ length: 8 }, (_, n) => sender(n)));
    for (const answers of all) {
      expect(answers.map((a) => [a.contact_created, a.ticket_created])).toEqual([[true, true], [false, false], [false, false], [false, false]]);
      expect(new Set(answers.map((a) => a.ticket_id)).size).toBe(1);
      expect(new Set(answers.map((a) => a.client_id)).size).toBe(1);
    }
    const { rows } = await sql<{ messages: number; tickets: number }>`
      SELECT (SELECT count(*) FROM messages WHERE company_id = ${company.id} AND direction = 'inbound') AS messages,
             (SELECT count(*) FROM tickets WHERE company_id = ${company.id}) AS tickets`.execute(api.database.db);
    expect(rows[0]).toEqual({ messages: 32, tickets: 8 });
  });
});
