import { beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ContainerModule } from 'inversify';
import { sql } from 'kysely';
import { ChannelGateway, Clock, DeliverTicketSend, HandleSenderFailure, IdGenerator, UnitOfWork, type SendRequest } from '@carteiro/core';
import type { ServiceUnitOfWork } from '@carteiro/postgres';
import { createTestApi, type TestApi } from '../../../api/src/testing/test-api.js';
import { ticketTenant } from '../../../api/src/testing/ticket-reply-fixtures.js';
import { crashFixture } from '../testing/crash-fixture.js';
import { eventually } from '../testing/test-worker.js';
import { JobHandler } from '../jobs/job-handler.js';

const LEASE_MS = '500';
const inbox = { closingMessage: 'Obrigado, {{primeiro_nome}}! Protocolo {{protocolo}}.', csatEnabled: true, csatQuestion: 'De 1 a 5, como foi o atendimento?' };

describe('closing messages and rating requests sent by the worker exactly once', () => {
  // The sweep that brings back a killed worker's sends reads its lease from the environment.
  const fixture = crashFixture(createTestApi, { TICKET_SEND_LEASE_MS: LEASE_MS });
  let api: TestApi;
  beforeAll(() => {
    api = fixture.api;
  });

  const balanceOf = async (companyId: string) => (await request(api.app).get(`/admin/v1/companies/${companyId}`).set(api.adminAuth)).body.data.avulso_balance as number;
  const outboxTo = (to: string) =>
    api.database.db.selectFrom('simulator_messages').select(['client_message_id', 'text', 'kind']).where('to_number', '=', to).orderBy('seq').execute();
  const sendsOf = (ticketId: string) => api.database.db.selectFrom('ticket_sends').select(['id', 'kind', 'status', 'attempts']).where('ticket_id', '=', ticketId).orderBy('created_at').execute();

  it('a worker killed between closing and sending: its successor sends the closing message and the rating request once each', async () => {
    const t = await ticketTenant(api, { company: { modality: 'avulso', avulso_balance: 20 }, inbox });
    const { ticket, phone } = await t.openTicket('Ana Maria');
    const child = await fixture.startWorkerProcess();
    const before = await balanceOf(t.company.id);
    const closed = await request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'closed' });
    expect(closed.status).toBe(200);
    expect(closed.body.data.closing).toEqual({ closing_message: 'queued', rating_request: 'queued' });
    // The close committed the two sends and their jobs; the worker dies before (or while) it sends them.
    await child.kill();

    const successor = await fixture.successor();
    await eventually(async () => (await sendsOf(ticket.id)).every((s) => s.status === 'sent'), { timeoutMs: 30_000 });
    const sent = (await outboxTo(phone)).filter((m) => m.client_message_id !== null && m.text !== 'Olá!');
    // The dying worker may have sent one of them before the other: the order is not fixed, the count is.
    expect(sent).toHaveLength(2);
    expect(sent.map((m) => m.text)).toEqual(
      expect.arrayContaining(['Obrigado, Ana! Protocolo ' + ticket.number + '.', expect.stringMatching(/^De 1 a 5, como foi o atendimento\?[\s\S]*1\. Péssimo[\s\S]*5\. Excelente/)]),
    );
    expect(new Set(sent.map((m) => m.client_message_id))).toEqual(new Set((await sendsOf(ticket.id)).map((s) => s.id)));
    expect(await balanceOf(t.company.id)).toBe(before - 2);
    const events = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', t.company.id).where('event', '=', 'message.sent').execute();
    const ticketEvents = events.filter((e) => (e.data as Record<string, unknown>).ticketId === ticket.id);
    expect(ticketEvents).toHaveLength(2);
    // In the timeline, as the system's messages.
    const timeline = await request(api.app).get(`/v1/tickets/${ticket.id}/messages?order=asc`).set(t.auth);
    expect(timeline.body.data.items.map((i: { author: { type: string }; status: string }) => [i.author.type, i.status])).toEqual([
      ['system', 'sent'],
      ['system', 'sent'],
    ]);
    const detail = await t.uow.transaction((repos) => repos.tickets.findById(t.company.id, ticket.id));
    expect(detail?.rating).toMatchObject({ status: 'requested', agentId: t.agent.id });
    // Its expiry is one job 24 hours after the request, not a poll.
    const expiry = await sql<{ start_after: Date }>`SELECT start_after FROM pgboss.job WHERE name = 'ticket-rating-expiry' AND data->>'ticketId' = ${ticket.id}`.execute(api.database.db);
    expect(expiry.rows).toHaveLength(1);
    expect(new Date(expiry.rows[0]!.start_after).getTime()).toBe(detail!.rating.requestedAt!.getTime() + 24 * 3_600_000);
    // When it runs (here: handed the job, the request moved 25 hours back), the unanswered request expires.
    await api.database.db.updateTable('tickets').set({ rating_requested_at: new Date(Date.now() - 25 * 3_600_000) }).where('id', '=', ticket.id).execute();
    const handler = successor.container.getAll<JobHandler>(JobHandler).find((h) => h.queue === 'ticket-rating-expiry')!;
    await handler.handle([{ id: 'expiry', data: { companyId: t.company.id, ticketId: ticket.id } }]);
    expect((await t.uow.transaction((repos) => repos.tickets.findById(t.company.id, ticket.id)))?.rating.status).toBe('expired');
    await successor.close();
  }, 90_000);

  it('a worker that dies after the send and before recording it: the retried job sends nothing new and charges once', async () => {
    const t = await ticketTenant(api, { company: { modality: 'avulso', avulso_balance: 20 }, inbox });
    const { ticket, phone } = await t.openTicket('Bruno Lima');
    // The first transaction after the first channel send fails, as a worker dying right after the send.
    const crash = { armed: false, done: false };
    const dyingAfterSend = new ContainerModule(({ rebind }) => {
      rebind(DeliverTicketSend)
        .toResolvedValue(
          (uow: ServiceUnitOfWork, gateway: ChannelGateway, clock: Clock, ids: IdGenerator) => {
            const watched = new Proxy(gateway, {
              get(target, property) {
                if (property === 'send') {
                  return async (req: SendRequest) => {
                    const result = await target.send(req);
                    if (result.ok && !crash.done) crash.armed = true;
                    return result;
                  };
                }
                const value = Reflect.get(target, property) as unknown;
                return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
              },
            });
            const dying: ServiceUnitOfWork = {
              transaction: (work) => {
                if (crash.armed && !crash.done) {
                  crash.done = true;
                  return Promise.reject(new Error('worker died after the send'));
                }
                return uow.transaction(work);
              },
            };
            return new DeliverTicketSend(dying, watched, new HandleSenderFailure(uow, clock, ids), clock, ids);
          },
          [UnitOfWork, ChannelGateway, Clock, IdGenerator],
        )
        .inSingletonScope();
    });
    const before = await balanceOf(t.company.id);
    const closed = await request(api.app).patch(`/v1/tickets/${ticket.id}/status`).set(t.auth).send({ status: 'closed', request_rating: false });
    expect(closed.body.data.closing).toEqual({ closing_message: 'queued', rating_request: 'none' });
    // No sweep here: the retry of the failed job alone must finish it.
    process.env.TICKET_SEND_LEASE_MS = '600000';
    await fixture.successor({ overrides: [dyingAfterSend] });
    await eventually(async () => (await sendsOf(ticket.id))[0]?.status === 'sent', { timeoutMs: 30_000 });
    expect(crash.done).toBe(true);
    const [send] = await sendsOf(ticket.id);
    expect(send).toMatchObject({ kind: 'closing_message', status: 'sent', attempts: 2 });
    const sent = (await outboxTo(phone)).filter((m) => m.client_message_id === send!.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toBe(`Obrigado, Bruno! Protocolo ${ticket.number}.`);
    expect(await balanceOf(t.company.id)).toBe(before - 1);
    const events = await api.database.db.selectFrom('domain_events').select('data').where('company_id', '=', t.company.id).where('event', '=', 'message.sent').execute();
    expect(events.filter((e) => (e.data as Record<string, unknown>).messageId === send!.id)).toHaveLength(1);
  }, 60_000);
});
