import { afterAll, beforeAll, expect, it } from '@jest/globals';
import request from 'supertest';
import { withoutTestFailures } from '../testing/no-test-failures.js';
import { createTestApi, type TestApi } from '../testing/test-api.js';
import { createTestWorker, eventually, type TestWorker } from '../../../worker/src/testing/test-worker.js';

// The README's conversations tour, call for call, with the answers it promises: a contact writes, the ticket shows in
// the list (auto-assigned by the box's team), it is handed off to an agent, the agent replies with the quick reply, closes it (closing message and rating
// request sent by the worker), the contact answers "5", and the rating shows in GET /v1/ratings. The box is set up as the
// demo seed sets up the demo box (an available agent in the team "Atendimento", a quick reply, CSAT on).

// Test keys fail 5 % of simulated sends at random: pinned to never (withoutTestFailures), so the tour's sends go through.

let api: TestApi;
let worker: TestWorker;
beforeAll(async () => {
  api = await createTestApi({ overrides: withoutTestFailures() });
  worker = await createTestWorker({ database: api.database, overrides: withoutTestFailures() });
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
});

it('inbound → ticket in the list → handoff → quick reply → close with rating request → "5" → GET /v1/ratings', async () => {
  const { company, auth, setor } = await api.createTenant({ setor: { nome: 'Demo' } });
  const admin = (method: 'post' | 'patch', path: string, body: object) => request(api.app)[method](path).set(api.adminAuth).send(body);
  const team = (await admin('post', `/admin/v1/companies/${company.id}/teams`, { nome: 'Atendimento', setor_ids: [setor.id] }).expect(201)).body.data;
  const agent = (await admin('post', `/admin/v1/companies/${company.id}/agents`, { name: 'Ana Atendente', email: 'ana@demo.example', status: 'available' }).expect(201)).body.data;
  await admin('patch', `/admin/v1/teams/${team.id}`, { agent_ids: [agent.id], auto_assign: true }).expect(200);
  const quickReply = (
    await admin('post', `/admin/v1/companies/${company.id}/quick-replies`, {
      shortcut: 'boas-vindas',
      title: 'Boas-vindas',
      text: 'Olá {{primeiro_nome}}, aqui é {{atendente}}. Seu protocolo é {{protocolo}}. Como posso ajudar?',
    }).expect(201)
  ).body.data;
  await admin('patch', `/admin/v1/setores/${setor.id}`, {
    closing_message: 'Obrigado pelo contato, {{primeiro_nome}}! Protocolo {{protocolo}}.',
    csat_enabled: true,
    csat_question: 'Como você avalia o nosso atendimento?',
    csat_thanks: 'Obrigado pela avaliação!',
    default_team_id: team.id,
  }).expect(200);
  const phone = '+5511987654321';
  const inbound = (body: object) => admin('post', '/admin/v1/simulator/inbound', { setor_id: setor.id, from: phone, ...body }).expect(201);
  const outbox = async () =>
    ((await request(api.app).get(`/admin/v1/simulator/messages?to=${encodeURIComponent(phone)}`).set(api.adminAuth).expect(200)).body.data.items as { text: string | null; outcome: string }[]).map(
      (m) => m.text,
    );

  // A contact writes: a new contact, conversation and open ticket of the box's team.
  const first = (await inbound({ name: 'Maria Souza', text: 'Oi, meu pedido não chegou' })).body.data;
  expect(first).toMatchObject({ contact_created: true, ticket_status: 'open', ticket_created: true, rating_recorded: false });
  const ticketId: string = first.ticket_id;
  const list = (await request(api.app).get('/v1/tickets').set(auth).expect(200)).body.data;
  expect(list.items).toHaveLength(1);
  expect(list.items[0]).toMatchObject({
    id: ticketId,
    number: 1,
    status: 'open',
    agent_id: agent.id,
    team_id: team.id,
    contact: { name: 'Maria Souza', phone },
    last_message: { direction: 'inbound', preview: 'Oi, meu pedido não chegou' },
    rating_status: 'none',
  });
  // The box's default team auto-assigns: the ticket is Ana's at once, the queue of unassigned tickets is empty.
  expect((await request(api.app).get('/v1/queue').set(auth).expect(200)).body.data).toMatchObject({ items: [], total: 0 });
  expect((await request(api.app).get(`/v1/tickets?owner=${agent.id}`).set(auth).expect(200)).body.data.items.map((t: { id: string }) => t.id)).toEqual([ticketId]);

  // Handoff to Ana with a summary: open, hers, high priority, the summary pinned, the contact's assistant paused.
  const handoff = (
    await request(api.app)
      .post(`/v1/tickets/${ticketId}/handoff`)
      .set(auth)
      .send({ summary: 'Pedido 4521 não entregue; cliente quer prazo novo.', agent_id: agent.id, priority: 'high' })
      .expect(200)
  ).body.data;
  expect(handoff).toMatchObject({ status: 'open', agent_id: agent.id, priority: 'high', handoff: { summary: 'Pedido 4521 não entregue; cliente quer prazo novo.' }, contact: { ia_ativa: false } });

  // Ana replies with the quick reply: its placeholders filled, sent on the box.
  const reply = (await request(api.app).post(`/v1/tickets/${ticketId}/messages`).set(auth).set('X-Actor-User-Id', agent.id).send({ quick_reply_id: quickReply.id }).expect(201)).body
    .data;
  expect(reply).toMatchObject({ type: 'message', direction: 'outbound', status: 'sent', author: { type: 'agent', id: agent.id } });
  expect(reply.content.text).toBe('Olá Maria, aqui é Ana Atendente. Seu protocolo é 1. Como posso ajudar?');

  // She closes it: the closing message and the rating request are queued, then sent once by the worker.
  const closed = (await request(api.app).patch(`/v1/tickets/${ticketId}/status`).set(auth).set('X-Actor-User-Id', agent.id).send({ status: 'closed', close_reason: 'Novo prazo combinado' }).expect(200))
    .body.data;
  expect(closed).toMatchObject({ status: 'closed', rating_status: 'requested', close_reason: 'Novo prazo combinado', closing: { closing_message: 'queued', rating_request: 'queued' } });
  const sent = await eventually(async () => {
    const texts = await outbox();
    return texts.some((t) => t?.startsWith('Como você avalia')) && texts.includes('Obrigado pelo contato, Maria! Protocolo 1.') ? texts : null;
  }, { timeoutMs: 30_000 });
  expect(sent.filter((t) => t?.startsWith('Como você avalia'))).toEqual(['Como você avalia o nosso atendimento?\n\n1. Péssimo\n2. Ruim\n3. Regular\n4. Bom\n5. Excelente']);

  // The contact answers "5": recorded on the closed ticket, which stays closed; the thanks follow.
  const rated = (await inbound({ text: '5 muito rápido, obrigada' })).body.data;
  expect(rated).toMatchObject({ ticket_id: ticketId, ticket_status: 'closed', ticket_created: false, ticket_reopened: false, rating_recorded: true });
  await eventually(async () => ((await outbox()).includes('Obrigado pela avaliação!') ? true : null), { timeoutMs: 30_000 });

  const ratings = (await request(api.app).get('/v1/ratings').set(auth).expect(200)).body.data;
  expect(ratings.summary).toMatchObject({ requested: 1, responded: 1, response_rate: 1, average: 5, csat_percent: 100, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 1 } });
  expect(ratings.ranking).toEqual([{ agent_id: agent.id, name: 'Ana Atendente', responded: 1, average: 5, csat_percent: 100 }]);
  expect(ratings.recent).toEqual([expect.objectContaining({ ticket_id: ticketId, number: 1, score: 5, comment: 'muito rápido, obrigada', source: 'reply' })]);
});
