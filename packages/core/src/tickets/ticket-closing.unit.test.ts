import { describe, expect, it } from '@jest/globals';
import { FakeChannelGateway } from '../channel/testing/index.js';
import type { SendRequest, SendResult } from '../channel/index.js';
import type { Company, CompanySettingsInput } from '../companies/index.js';
import { createAgent } from '../agents/index.js';
import { createQuickReply } from '../quick-replies/index.js';
import { MessagingWorld } from '../testing/messaging-world.js';
import { SendMessage } from '../messages/index.js';
import type { Setor, SetorInboxSettings } from '../setores/index.js';
import { DEFAULT_SETOR_INBOX_SETTINGS } from '../setores/index.js';
import { transition } from '../shared/decider.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { AllAreas } from '../testing/in-memory-unit-of-work.js';
import { DeliverTicketSend, SweepTicketSends } from './deliver-ticket-send.js';
import { newTicket, ticketDecider, type Ticket } from './ticket.js';
import { queueClosingSends, queueCsatThanks, type ClosingOptions } from './ticket-closing.js';
import { ExpireTicketRating, GetRatingReport, RateTicket } from './ticket-ratings.js';
import { GetTicketTimeline } from './ticket-timeline.js';
import { ReplyToTicket, TicketThreads } from './ticket-replies.js';
import { TicketSendQueues } from './ticket-send.js';
import { TicketClosedError } from './ticket-errors.js';

const HOUR = 3_600_000;

/** The fake gateway with the simulator's rule: a repeated client message id answers the first result and sends nothing. */
class DedupingGateway extends FakeChannelGateway {
  private readonly byClientId = new Map<string, SendResult>();
  readonly attempts: SendRequest[] = [];
  override async send(request: SendRequest): Promise<SendResult> {
    this.attempts.push(structuredClone(request));
    const earlier = this.byClientId.get(request.clientMessageId);
    if (earlier) return earlier;
    const result = await super.send(request);
    this.byClientId.set(request.clientMessageId, result);
    return result;
  }
}

/** A unit of work that "crashes" (throws before any work) on chosen transaction numbers, as a worker dying there. */
class CrashingUnitOfWork implements UnitOfWork<AllAreas> {
  private count = 0;
  readonly crashAt = new Set<number>();
  constructor(private readonly inner: UnitOfWork<AllAreas>) {}
  transaction<T>(work: (repos: Repositories<AllAreas>) => Promise<T>): Promise<T> {
    this.count += 1;
    if (this.crashAt.has(this.count)) return Promise.reject(new Error(`worker died at transaction ${this.count}`));
    return this.inner.transaction(work);
  }
}

class TicketWorld extends MessagingWorld {
  override readonly gateway = new DedupingGateway(this.clock);
  readonly threads = new TicketThreads();
  readonly sender = new SendMessage(this.uow, this.repos, this.gateway, this.senderFailures, this.clock, this.ids, this.threads);
  readonly replies = new ReplyToTicket(this.uow, this.sender, this.clock, this.ids);
  readonly crashing = new CrashingUnitOfWork(this.uow);
  readonly deliver = new DeliverTicketSend(this.crashing, this.gateway, this.senderFailures, this.clock, this.ids);

  async setup(companyInput: CompanySettingsInput = {}, options: { channelType?: 'qr' | 'official'; inbox?: Partial<SetorInboxSettings> } = {}) {
    const company = await this.company(companyInput);
    const base = await this.box(company, options.channelType ? { channelType: options.channelType } : {});
    const setor: Setor = { ...base, inbox: { ...DEFAULT_SETOR_INBOX_SETTINGS, ...options.inbox } };
    await this.repos.setores.update(setor);
    const agent = createAgent(this.ids.newId(), company.id, this.clock.now(), { name: 'Carla Souza', email: 'carla@example.com' });
    await this.repos.agents.insertUnique(agent);
    const [contact] = await this.repos.contacts.ensureMany(company.id, [{ phone: '+5511987650000', name: 'Ana Maria' }], this.ids, this.clock.now());
    const conversation = await this.repos.conversations.findOrCreate({
      id: this.ids.newId(),
      companyId: company.id,
      setorId: setor.id,
      contactId: contact!.id,
      lastInboundAt: null,
      lastOutboundAt: null,
      createdAt: this.clock.now(),
      updatedAt: this.clock.now(),
    });
    await this.repos.conversationWindows.recordInbound(setor.id, contact!.phone, this.clock.now());
    const ticket = newTicket(
      { id: this.ids.newId(), companyId: company.id, number: 42, status: 'open', setorId: setor.id, contactId: contact!.id, conversationId: conversation.id, source: 'inbound', agentId: agent.id },
      this.clock.now(),
    );
    await this.repos.tickets.insert(ticket);
    return { company, setor, agent, contact: contact!, ticket };
  }

  /** Closes the ticket as PATCH status does, with the closing side effects in the same transaction. */
  close(company: Company, ticketId: string, options: ClosingOptions = {}) {
    return this.uow.transaction(async (repos) => {
      const ticket = (await repos.tickets.lockById(company.id, ticketId))!;
      const at = this.clock.now();
      const closed = transition(ticketDecider, ticket, { type: 'changeStatus', at, to: 'closed' }).state!;
      const { ticket: next, closing } = await queueClosingSends(repos, { ticket: closed, keyMode: 'live', options, at, ids: this.ids });
      await repos.tickets.save({ ...next, version: ticket.version + 1 }, ticket.version);
      return closing;
    });
  }

  sendJobs() {
    return this.uow.store.jobs.filter((j) => j.queue === TicketSendQueues.send).map((j) => j.data.sendId as string);
  }

  async runJobs() {
    const runs = [];
    for (const id of this.sendJobs()) runs.push(await this.deliver.execute(id));
    return runs;
  }

  ticket(company: Company, id: string): Promise<Ticket> {
    return this.repos.tickets.findById(company.id, id) as Promise<Ticket>;
  }

  balance(company: Company) {
    return this.repos.companies.findById(company.id).then((c) => c!.avulsoBalance);
  }
}

const csat = { closingMessage: 'Obrigado, {{primeiro_nome}}! Protocolo {{protocolo}}, atendente {{atendente}}.', csatEnabled: true, csatQuestion: 'De 1 a 5, como foi?' };

describe('closing: the closing message and the rating request', () => {
  it('queues both in the closing transaction; the worker sends each once, charged like replies, in the timeline', async () => {
    const w = new TicketWorld();
    const { company, ticket, agent } = await w.setup({ modality: 'avulso', avulsoBalance: 10 }, { inbox: csat });
    const closing = await w.close(company, ticket.id);
    expect(closing).toEqual({ closingMessage: 'queued', ratingRequest: 'queued' });
    expect(w.gateway.sent).toHaveLength(0);
    expect(w.sendJobs()).toHaveLength(2);
    const afterClose = await w.ticket(company, ticket.id);
    expect(afterClose.rating).toMatchObject({ status: 'requested', requestedAt: w.clock.now(), agentId: agent.id });
    // Expiry is one job at request + 24 h, not a poll.
    const expiry = w.uow.store.jobs.filter((j) => j.queue === TicketSendQueues.ratingExpiry);
    expect(expiry).toHaveLength(1);
    expect(expiry[0]!.startAfter).toEqual(new Date(w.clock.now().getTime() + 24 * HOUR));

    expect(await w.runJobs()).toEqual(['sent', 'sent']);
    expect(w.gateway.sent.map((s) => s.content)).toEqual([
      { kind: 'text', text: 'Obrigado, Ana! Protocolo 42, atendente Carla Souza.' },
      // QR boxes get the list as numbered text.
      { kind: 'text', text: expect.stringMatching(/De 1 a 5, como foi\?[\s\S]*1\. Péssimo[\s\S]*5\. Excelente/) },
    ]);
    expect(await w.balance(company)).toBe(8);
    // Running the jobs again (a repeated delivery) sends nothing more.
    expect(await w.runJobs()).toEqual(['done', 'done']);
    expect(w.gateway.sent).toHaveLength(2);
    const timeline = await new GetTicketTimeline(w.repos).execute({ companyId: company.id, ticketId: ticket.id, order: 'asc' });
    expect(timeline.items.map((m) => [m.type, m.status, m.author?.type])).toEqual([
      ['message', 'sent', 'system'],
      ['message', 'sent', 'system'],
    ]);
    expect(w.events('message.sent').map((e) => e.data.ticketId)).toEqual([ticket.id, ticket.id]);
  });

  it('follows the options: no closing message, no rating request, or the box default (csat_enabled)', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({}, { inbox: csat });
    expect(await w.close(company, ticket.id, { sendClosingMessage: false, requestRating: false })).toEqual({ closingMessage: 'none', ratingRequest: 'none' });
    expect(w.sendJobs()).toHaveLength(0);
    expect((await w.ticket(company, ticket.id)).rating.status).toBe('none');

    const w2 = new TicketWorld();
    const t2 = await w2.setup({}, { inbox: { closingMessage: null, csatEnabled: false } });
    expect(await w2.close(t2.company, t2.ticket.id)).toEqual({ closingMessage: 'none', ratingRequest: 'none' });

    const w3 = new TicketWorld();
    const t3 = await w3.setup({}, { inbox: { closingMessage: null, csatEnabled: false } });
    expect(await w3.close(t3.company, t3.ticket.id, { requestRating: true })).toEqual({ closingMessage: 'none', ratingRequest: 'queued' });
    expect(w3.sendJobs()).toHaveLength(1);
  });

  it('answers already_requested when the ticket had a rating request (reopened and closed again)', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({}, { inbox: csat });
    await w.close(company, ticket.id);
    await w.uow.transaction(async (repos) => {
      const t = (await repos.tickets.lockById(company.id, ticket.id))!;
      const reopened = transition(ticketDecider, t, { type: 'changeStatus', at: w.clock.now(), to: 'open' }).state!;
      await repos.tickets.save({ ...reopened, version: t.version + 1 }, t.version);
    });
    expect(await w.close(company, ticket.id, { sendClosingMessage: false })).toEqual({ closingMessage: 'none', ratingRequest: 'already_requested' });
  });

  it('outside the official 24-hour window neither goes: an activity says so and the rating is not_sent', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({ modality: 'avulso', avulsoBalance: 10 }, { channelType: 'official', inbox: csat });
    w.clock.advance(25 * HOUR);
    expect(await w.close(company, ticket.id)).toEqual({ closingMessage: 'skipped_window', ratingRequest: 'skipped_window' });
    expect(w.sendJobs()).toHaveLength(0);
    expect((await w.ticket(company, ticket.id)).rating.status).toBe('not_sent');
    const timeline = await new GetTicketTimeline(w.repos).execute({ companyId: company.id, ticketId: ticket.id });
    expect(timeline.items).toHaveLength(1);
    expect(timeline.items[0]).toMatchObject({ type: 'activity', activity: { kind: 'closing_skipped', from: null, to: 'window_closed' } });
    expect(await w.balance(company)).toBe(10);
  });

  it('inside the official window sends the rating request as an interactive list csat_1…csat_5', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({}, { channelType: 'official', inbox: { csatEnabled: true } });
    w.clock.advance(23 * HOUR);
    expect(await w.close(company, ticket.id)).toEqual({ closingMessage: 'none', ratingRequest: 'queued' });
    expect(await w.runJobs()).toEqual(['sent']);
    const content = w.gateway.sent[0]!.content;
    expect(content).toMatchObject({ kind: 'interactive', interactiveType: 'list' });
    expect(content.kind === 'interactive' && content.sections?.[0]?.rows.map((r) => r.id)).toEqual(['csat_1', 'csat_2', 'csat_3', 'csat_4', 'csat_5']);
  });

  it('a job that runs after the window closed skips the send, charges nothing and records the failure', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({ modality: 'avulso', avulsoBalance: 10 }, { channelType: 'official', inbox: csat });
    w.clock.advance(23 * HOUR);
    await w.close(company, ticket.id, { requestRating: false });
    w.clock.advance(2 * HOUR);
    expect(await w.runJobs()).toEqual(['skipped']);
    expect(w.gateway.sent).toHaveLength(0);
    expect(await w.balance(company)).toBe(10);
    expect(w.events('message.failed')[0]!.data).toMatchObject({ ticketId: ticket.id, error_code: 'OFFICIAL_WINDOW_EXPIRED' });
  });

  it('a rating request whose ticket was reopened before the job ran is not sent; the rating is not_sent and the next close asks again', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({}, { inbox: { csatEnabled: true } });
    expect(await w.close(company, ticket.id)).toEqual({ closingMessage: 'none', ratingRequest: 'queued' });
    await w.uow.transaction(async (repos) => {
      const t = (await repos.tickets.lockById(company.id, ticket.id))!;
      const reopened = transition(ticketDecider, t, { type: 'changeStatus', at: w.clock.now(), to: 'open' }).state!;
      await repos.tickets.save({ ...reopened, version: t.version + 1 }, t.version);
    });
    expect(await w.runJobs()).toEqual(['skipped']);
    expect(w.gateway.sent).toHaveLength(0);
    expect((await w.ticket(company, ticket.id)).rating.status).toBe('not_sent');
    expect(w.events('message.failed')[0]!.data).toMatchObject({ ticketId: ticket.id, error_code: 'TICKET_REOPENED' });
    expect(await w.close(company, ticket.id)).toEqual({ closingMessage: 'none', ratingRequest: 'queued' });
  });

  it('a rating request the company cannot pay for when the job runs is not sent, and the rating reads not_sent', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({ modality: 'avulso', avulsoBalance: 0 }, { inbox: { csatEnabled: true } });
    expect(await w.close(company, ticket.id)).toEqual({ closingMessage: 'none', ratingRequest: 'queued' });
    expect((await w.ticket(company, ticket.id)).rating.status).toBe('requested');
    expect(await w.runJobs()).toEqual(['skipped']);
    expect(w.gateway.sent).toHaveLength(0);
    expect((await w.ticket(company, ticket.id)).rating).toMatchObject({ status: 'not_sent', requestedAt: null });
  });

  it('a provider failure refunds the charge and fails the message', async () => {
    const w = new TicketWorld();
    const { company, ticket, contact } = await w.setup({ modality: 'avulso', avulsoBalance: 10 }, { inbox: csat });
    await w.close(company, ticket.id, { requestRating: false });
    w.gateway.failFor(contact.phone, { code: 'TEMP_SERVER_ERROR', providerFailure: true });
    expect(await w.runJobs()).toEqual(['failed']);
    expect(await w.balance(company)).toBe(10);
    expect(w.events('message.failed')).toHaveLength(1);
  });
});

describe('closing: exactly once across crashes', () => {
  /**
   * A prepaid (avulso, 10 credits) company's ticket closed without a rating request, whose closing message's first
   * delivery run dies at transaction `step` (1 claim, 2 target read, 3 settle).
   */
  async function closedWithRunDyingAt(step: number) {
    const w = new TicketWorld();
    const { company, ticket, setor } = await w.setup({ modality: 'avulso', avulsoBalance: 10 }, { inbox: csat });
    await w.close(company, ticket.id, { requestRating: false });
    const [sendId] = w.sendJobs();
    w.crashing.crashAt.add(step);
    await expect(w.deliver.execute(sendId!)).rejects.toThrow('worker died');
    return { w, company, setor, sendId };
  }

  it('a worker that dies after the send and before its record: the retry sends nothing new and charges once', async () => {
    // Dying at 3 (settle) = after the channel call.
    const { w, company, sendId } = await closedWithRunDyingAt(3);
    expect(w.gateway.sent).toHaveLength(1);
    expect((await w.repos.ticketSends.lockById(sendId!))?.status).toBe('sending');
    expect(await w.balance(company)).toBe(9);

    w.clock.advance(60_000);
    expect(await w.deliver.execute(sendId!)).toBe('sent');
    // The retry repeated the client id with the dead run's claim time; the channel dropped the copy.
    expect(w.gateway.attempts.map((a) => [a.clientMessageId, a.earlierAttemptSince ?? null])).toEqual([
      [sendId, null],
      [sendId, new Date(w.clock.now().getTime() - 60_000)],
    ]);
    expect(w.gateway.sent).toHaveLength(1);
    expect(await w.balance(company)).toBe(9);
    expect(w.events('message.sent')).toHaveLength(1);
    const send = await w.repos.ticketSends.lockById(sendId!);
    expect(send).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('a claimed send whose box is gone when the retry comes fails with its charge given back', async () => {
    const { w, company, setor, sendId } = await closedWithRunDyingAt(2);
    expect(await w.balance(company)).toBe(9);
    const instance = (await w.repos.channelInstances.findBySetor(setor.id))!;
    await w.repos.channelInstances.update({ ...instance, status: 'disconnected' });
    expect(await w.deliver.execute(sendId!)).toBe('failed');
    expect(await w.balance(company)).toBe(10);
    expect(await w.repos.ticketSends.lockById(sendId!)).toMatchObject({ status: 'failed', errorCode: 'SENDER_DISCONNECTED' });
    expect(w.events('message.failed')).toHaveLength(1);
    expect(await w.deliver.execute(sendId!)).toBe('done');
  });

  it('a worker that dies before its claim commits: the retry sends once', async () => {
    const { w, company, sendId } = await closedWithRunDyingAt(1);
    expect(w.gateway.sent).toHaveLength(0);
    expect(await w.deliver.execute(sendId!)).toBe('sent');
    expect(w.gateway.sent).toHaveLength(1);
    expect(await w.balance(company)).toBe(9);
  });
});

describe('the sweep of sends a dead worker left', () => {
  it('enqueues again sends queued or claimed for longer than the lease, once per lease, and never settled ones', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({}, { inbox: csat });
    await w.close(company, ticket.id);
    const [closingId, ratingId] = w.sendJobs();
    await w.deliver.execute(ratingId!);
    const sweep = new SweepTicketSends(w.uow, w.clock, 60_000);
    expect(await sweep.execute()).toBe(0);
    w.clock.advance(60_001);
    expect(await sweep.execute()).toBe(1);
    expect(w.sendJobs()).toEqual([closingId, ratingId, closingId]);
    expect(await sweep.execute()).toBe(0);
    w.clock.advance(60_001);
    expect(await sweep.execute()).toBe(1);
    expect(await w.deliver.execute(closingId!)).toBe('sent');
    expect(await w.deliver.execute(closingId!)).toBe('done');
    expect(w.gateway.sent).toHaveLength(2);
  });
});

describe('csat thanks', () => {
  it('queues the box thanks as a send of its own; nothing without a text', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({}, { inbox: { csatThanks: 'Valeu, {{primeiro_nome}}!' } });
    await w.close(company, ticket.id, { requestRating: false });
    const closed = await w.ticket(company, ticket.id);
    const id = await w.uow.transaction((repos) => queueCsatThanks(repos, { ticket: closed, at: w.clock.now(), ids: w.ids }));
    expect(id).not.toBeNull();
    expect(await w.runJobs()).toEqual(['sent']);
    expect(w.gateway.sent[0]!.content).toEqual({ kind: 'text', text: 'Valeu, Ana!' });

    // The thanks goes in the key mode of the rating request: a test key's close keeps it in the simulator, uncharged.
    const w3 = new TicketWorld();
    const t3 = await w3.setup({ modality: 'avulso', avulsoBalance: 5 }, { inbox: { csatEnabled: true, csatThanks: 'Obrigado!' } });
    await w3.uow.transaction(async (repos) => {
      const t = (await repos.tickets.lockById(t3.company.id, t3.ticket.id))!;
      const closed = transition(ticketDecider, t, { type: 'changeStatus', at: w3.clock.now(), to: 'closed' }).state!;
      const { ticket: next } = await queueClosingSends(repos, { ticket: closed, keyMode: 'test', options: {}, at: w3.clock.now(), ids: w3.ids });
      await repos.tickets.save({ ...next, version: t.version + 1 }, t.version);
      await queueCsatThanks(repos, { ticket: next, at: w3.clock.now(), ids: w3.ids });
    });
    expect(await w3.runJobs()).toEqual(['sent', 'sent']);
    expect(w3.gateway.sent.map((r) => r.mode)).toEqual(['test', 'test']);
    expect(await w3.balance(t3.company)).toBe(5);

    const w2 = new TicketWorld();
    const t2 = await w2.setup({}, {});
    expect(await w2.uow.transaction((repos) => queueCsatThanks(repos, { ticket: t2.ticket, at: w2.clock.now(), ids: w2.ids }))).toBeNull();
  });
});

describe('ratings', () => {
  it('rates a closed ticket by the api: same again no-op, another within 24 h replaces, later 409; conversation.rated', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({}, { inbox: csat });
    const rate = new RateTicket(w.uow, w.clock, w.ids);
    await expect(rate.execute({ companyId: company.id, ticketId: ticket.id, score: 5 })).rejects.toThrow('Cannot rate');
    await w.close(company, ticket.id);
    const first = await rate.execute({ companyId: company.id, ticketId: ticket.id, score: 4, comment: 'bom' });
    expect(first.changed).toBe(true);
    expect(first.ticket.rating).toMatchObject({ status: 'rated', score: 4, comment: 'bom', source: 'api' });
    expect((await rate.execute({ companyId: company.id, ticketId: ticket.id, score: 4, comment: 'bom' })).changed).toBe(false);
    w.clock.advance(23 * HOUR);
    expect((await rate.execute({ companyId: company.id, ticketId: ticket.id, score: 5, comment: null })).ticket.rating.score).toBe(5);
    // The window runs from the latest rating (the decider's rule).
    w.clock.advance(25 * HOUR);
    await expect(rate.execute({ companyId: company.id, ticketId: ticket.id, score: 3 })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(w.events('conversation.rated').map((e) => e.data.score)).toEqual([4, 5]);
    await expect(rate.execute({ companyId: company.id, ticketId: ticket.id, score: 5, comment: 'x'.repeat(501) })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('expires an unanswered request after 24 hours (the job), and leaves a rated one', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({}, { inbox: csat });
    await w.close(company, ticket.id);
    const expire = new ExpireTicketRating(w.uow, w.clock);
    w.clock.advance(23 * HOUR);
    expect(await expire.execute(company.id, ticket.id)).toBe(false);
    w.clock.advance(HOUR);
    expect(await expire.execute(company.id, ticket.id)).toBe(true);
    expect((await w.ticket(company, ticket.id)).rating.status).toBe('expired');
    expect(await expire.execute(company.id, ticket.id)).toBe(false);
  });

  it('reports requested, responded, average, CSAT % of 4-5, distribution, ranking by agent and recent', async () => {
    const w = new TicketWorld();
    const { company, ticket, agent } = await w.setup({}, { inbox: csat });
    await w.close(company, ticket.id);
    await new RateTicket(w.uow, w.clock, w.ids).execute({ companyId: company.id, ticketId: ticket.id, score: 5 });
    // A second ticket of the box, requested and unanswered.
    const other = newTicket({ id: w.ids.newId(), companyId: company.id, number: 43, status: 'open', setorId: ticket.setorId, contactId: w.ids.newId(), conversationId: ticket.conversationId, source: 'api' }, w.clock.now());
    await w.repos.tickets.insert(other);
    await w.uow.transaction(async (repos) => {
      const closed = transition(ticketDecider, other, { type: 'changeStatus', at: w.clock.now(), to: 'closed' }).state!;
      const requested = transition(ticketDecider, closed, { type: 'requestRating', at: w.clock.now() }).state!;
      await repos.tickets.save({ ...requested, version: 2 }, 1);
    });
    w.clock.advance(HOUR);
    const report = await new GetRatingReport(w.repos, w.clock).execute({ companyId: company.id });
    expect(report.summary).toEqual({ requested: 2, responded: 1, responseRate: 0.5, average: 5, csatPercent: 100, distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 1 } });
    expect(report.ranking).toEqual([{ agentId: agent.id, name: 'Carla Souza', responded: 1, average: 5, csatPercent: 100 }]);
    expect(report.recent.map((r) => r.ticketId)).toEqual([ticket.id]);
    const none = await new GetRatingReport(w.repos, w.clock).execute({ companyId: company.id, agentId: w.ids.newId() });
    expect(none.summary).toMatchObject({ requested: 0, responded: 0, responseRate: null, average: null, csatPercent: null });
    await expect(new GetRatingReport(w.repos, w.clock).execute({ companyId: company.id, from: new Date('2024-01-01T00:00:00Z') })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

describe('replies and notes', () => {
  it('a public reply goes through the send path on the ticket box: charged, in the timeline, the ticket stops waiting', async () => {
    const w = new TicketWorld();
    const { company, ticket, agent, setor } = await w.setup({ modality: 'avulso', avulsoBalance: 5 }, {});
    const { outcome } = await w.replies.execute({ companyId: company.id, keyMode: 'live', ticketId: ticket.id, message: { text: 'Olá!' }, actorUserId: agent.id });
    expect(outcome.message).toMatchObject({ ticketId: ticket.id, status: 'sent', type: 'message', author: { type: 'agent', id: agent.id }, setorId: setor.id });
    expect(await w.balance(company)).toBe(4);
    const after = await w.ticket(company, ticket.id);
    expect(after).toMatchObject({ status: 'open', waitingSince: null, firstResponseAt: w.clock.now() });
    expect(w.events('message.sent')[0]).toMatchObject({ data: { ticketId: ticket.id }, actor: { user_id: agent.id } });
  });

  it('a note is stored, never sent or charged, and allowed when closed; a public reply to a closed ticket is 409', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({ modality: 'avulso', avulsoBalance: 5 }, {});
    await w.close(company, ticket.id);
    const { outcome } = await w.replies.execute({ companyId: company.id, keyMode: 'live', ticketId: ticket.id, message: { text: 'cliente pediu retorno' }, private: true });
    expect(outcome.message).toMatchObject({ type: 'note', author: { type: 'api', id: null } });
    expect(w.gateway.sent).toHaveLength(0);
    await expect(w.replies.execute({ companyId: company.id, keyMode: 'live', ticketId: ticket.id, message: { text: 'oi' } })).rejects.toBeInstanceOf(TicketClosedError);
    expect(await w.balance(company)).toBe(5);
  });

  it('a provider failure of a reply is refunded; an unknown author is 400; quick_reply_id with text is 400', async () => {
    const w = new TicketWorld();
    const { company, ticket, contact } = await w.setup({ modality: 'avulso', avulsoBalance: 5 }, {});
    w.gateway.failFor(contact.phone, { code: 'TEMP_SERVER_ERROR', providerFailure: true });
    await expect(w.replies.execute({ companyId: company.id, keyMode: 'live', ticketId: ticket.id, message: { text: 'oi' } })).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    expect(await w.balance(company)).toBe(5);
    await expect(w.replies.execute({ companyId: company.id, keyMode: 'live', ticketId: ticket.id, message: { text: 'oi' }, actorUserId: w.ids.newId() })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(w.replies.execute({ companyId: company.id, keyMode: 'live', ticketId: ticket.id, message: { text: 'oi' }, quickReplyId: w.ids.newId() })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('quick_reply_id fills text, media and placeholders; another box quick reply is 404', async () => {
    const w = new TicketWorld();
    const { company, ticket, agent, setor } = await w.setup({}, {});
    const reply = createQuickReply(w.ids.newId(), company.id, w.clock.now(), {
      shortcut: 'ola',
      title: 'Olá',
      text: 'Olá {{primeiro_nome}}, sou {{atendente}} (protocolo {{protocolo}}).',
      mediaUrl: 'https://example.com/catalogo.pdf',
      mediaType: 'document',
    });
    await w.repos.quickReplies.insertUnique(reply);
    const { outcome } = await w.replies.execute({ companyId: company.id, keyMode: 'live', ticketId: ticket.id, message: {}, quickReplyId: reply.id, actorUserId: agent.id });
    expect(outcome.message.content).toEqual({ type: 'media', media: { mediaType: 'document', url: 'https://example.com/catalogo.pdf' }, text: 'Olá Ana, sou Carla Souza (protocolo 42).' });
    const elsewhere = createQuickReply(w.ids.newId(), company.id, w.clock.now(), { shortcut: 'x', title: 'X', text: 'x', setorId: w.ids.newId() });
    await w.repos.quickReplies.insertUnique(elsewhere);
    await expect(w.replies.execute({ companyId: company.id, keyMode: 'live', ticketId: ticket.id, message: {}, quickReplyId: elsewhere.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(setor.id).toBe(ticket.setorId);
  });

  it('an official box with the window closed answers 422 WINDOW_EXPIRED before charging', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({ modality: 'avulso', avulsoBalance: 5 }, { channelType: 'official' });
    w.clock.advance(25 * HOUR);
    await expect(w.replies.execute({ companyId: company.id, keyMode: 'live', ticketId: ticket.id, message: { text: 'oi' } })).rejects.toMatchObject({ code: 'WINDOW_EXPIRED' });
    expect(await w.balance(company)).toBe(5);
  });

  it('a /v1/messages send to the contact joins the box active ticket', async () => {
    const w = new TicketWorld();
    const { company, ticket, contact, setor } = await w.setup({}, {});
    const outcome = await w.sender.send({ companyId: company.id, keyMode: 'live', clientId: contact.id, selection: { setorId: setor.id }, content: { type: 'text', text: 'oi' } });
    expect(outcome.ticketId).toBe(ticket.id);
    expect(outcome.message).toMatchObject({ ticketId: ticket.id, author: { type: 'api', id: null } });
  });
});

describe('timeline', () => {
  it('pages by (created_at, id) in both orders with a cursor bound to its filters; scope conversation', async () => {
    const w = new TicketWorld();
    const { company, ticket } = await w.setup({}, {});
    for (let i = 0; i < 5; i += 1) {
      await w.replies.execute({ companyId: company.id, keyMode: 'live', ticketId: ticket.id, message: { text: `nota ${i}` }, private: true });
      w.clock.advance(1000);
    }
    const timeline = new GetTicketTimeline(w.repos);
    const first = await timeline.execute({ companyId: company.id, ticketId: ticket.id, limit: 2 });
    expect(first.items.map((m) => (m.content as { text: string }).text)).toEqual(['nota 4', 'nota 3']);
    expect(first.hasMore).toBe(true);
    const second = await timeline.execute({ companyId: company.id, ticketId: ticket.id, limit: 2, cursor: first.nextCursor });
    expect(second.items.map((m) => (m.content as { text: string }).text)).toEqual(['nota 2', 'nota 1']);
    await expect(timeline.execute({ companyId: company.id, ticketId: ticket.id, order: 'asc', cursor: first.nextCursor })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    // A forged cursor (bound to the right ticket but with a bad key) is a 400, never a database error.
    const forged = Buffer.from(JSON.stringify({ o: 'desc', s: 'ticket', t: ticket.id, a: '2026-01-01T00:00:00.000Z', i: "x' OR 1=1" })).toString('base64url');
    await expect(timeline.execute({ companyId: company.id, ticketId: ticket.id, cursor: forged })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(timeline.execute({ companyId: company.id, ticketId: ticket.id, cursor: 'not-base64-json' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    const asc = await timeline.execute({ companyId: company.id, ticketId: ticket.id, order: 'asc', scope: 'conversation', limit: 100 });
    expect(asc.items).toHaveLength(5);
    expect(asc.nextCursor).toBeNull();
    await expect(timeline.execute({ companyId: company.id, ticketId: w.ids.newId() })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
