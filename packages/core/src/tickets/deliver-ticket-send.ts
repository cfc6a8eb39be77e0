import type { ChannelGateway, ChannelRepositories, OutboundContent, SendResult, SenderFailureInput } from '../channel/index.js';
import { isConversationWindowOpen } from '../channel/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import { chargeSend, refundSend } from '../credits/index.js';
import { planOutboundContent, singleSendEventData, type MessageRecord, type MessageRepositories } from '../messages/index.js';
import type { SetorRepositories } from '../setores/index.js';
import type { Clock } from '../shared/clock.js';
import { transition } from '../shared/decider.js';
import { systemActor, type DomainEvent } from '../shared/domain-event.js';
import { DomainError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { UsageRepositories } from '../usage/index.js';
import type { TicketRepositories } from './ticket-repository.js';
import { ticketDecider } from './ticket.js';
import { enqueueTicketSend, ticketSendClientMessageId, ticketSendDecider, type TicketSend, type TicketSendCommand, type TicketSendRepositories } from './ticket-send.js';

type Areas = TicketSendRepositories & TicketRepositories & MessageRepositories & ChannelRepositories & SetorRepositories & CompanyRepositories & UsageRepositories & ContactRepositories;
type Repos = Repositories<Areas>;

/** The part of the channel's sender-failure service a send needs: `HandleSenderFailure.within`. */
type SenderFailures = { within(repos: Repositories<ChannelRepositories & SetorRepositories>, input: SenderFailureInput): Promise<unknown> };

/** What one run of the job did (tests and logs). */
export type TicketSendRun = 'sent' | 'failed' | 'skipped' | 'done' | 'lost';

interface Claimed {
  send: TicketSend;
  message: MessageRecord;
  parts: OutboundContent[];
  /** Set when an earlier run claimed the send and may have sent it (its claim time). */
  earlierAttemptSince: Date | null;
}

/**
 * The worker's job for one {@link TicketSend} (a closing message, a rating request, a rating thanks):
 * exactly once at the channel and in the records, whatever crashes.
 * 1. Claim, in a committed transaction with the send row locked: a final row is done (a repeated
 *    job); a queued one is checked (connected box; on official boxes the 24-hour window, else
 *    skipped as `OFFICIAL_WINDOW_EXPIRED`), charged as a reply (`chargeSend`; a refusal such as an
 *    exhausted balance fails it), its channel messages planned, and it becomes `sending`. A row
 *    already `sending` was claimed by a run that died after its claim: it is not charged again, and
 *    its send repeats the same client message ids with `earlierAttemptSince` (the gateway answers
 *    the message the dead run sent instead of sending a copy: docs/channel.md).
 * 2. The channel messages go out, outside any transaction.
 * 3. Settle, with the row locked and still `sending`: sent (the timeline message, `message.sent`
 *    with `ticketId`) or failed (refund, `message.failed`, a sender failure disconnects the box).
 * A crash between 2 and 3 leaves the row `sending`; the job's retry (or its expiry) runs 1 again.
 */
export class DeliverTicketSend {
  constructor(
    private readonly uow: UnitOfWork<Areas>,
    private readonly gateway: ChannelGateway,
    private readonly senderFailures: SenderFailures,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(sendId: string): Promise<TicketSendRun> {
    const claimed = await this.uow.transaction((repos) => this.claim(repos, sendId));
    if (typeof claimed === 'string') return claimed;
    const result = await this.deliver(claimed);
    return this.uow.transaction((repos) => this.settle(repos, claimed, result));
  }

  private async claim(repos: Repos, sendId: string): Promise<Claimed | TicketSendRun> {
    const send = await repos.ticketSends.lockById(sendId);
    if (!send || send.status === 'sent' || send.status === 'failed' || send.status === 'skipped') return 'done';
    const message = await repos.messages.findByIdForUpdate(send.companyId, send.id);
    const setor = await repos.setores.findByIdInCompany(send.companyId, send.setorId);
    if (!message || !setor) return this.stop(repos, send, message, { type: 'skip', at: this.clock.now(), reason: 'NOT_FOUND' });
    const instance = await repos.channelInstances.findBySetor(setor.id);
    const now = this.clock.now();
    if (!instance || instance.status !== 'connected') return this.stop(repos, send, message, { type: 'skip', at: now, reason: 'SENDER_DISCONNECTED' });
    const capabilities = this.gateway.capabilities(setor, send.keyMode);
    const company = await repos.companies.findById(send.companyId);
    let parts: OutboundContent[];
    try {
      parts = planOutboundContent(message.content, capabilities, { timeZone: company?.timezone ?? 'America/Sao_Paulo' });
    } catch (error) {
      return this.stop(repos, send, message, { type: 'skip', at: now, reason: error instanceof DomainError ? error.code : 'UNKNOWN' });
    }
    // A rating request is for a closed ticket: one reopened before the job ran is not asked to rate (a rating reply
    // is not recognised while the ticket is active), and its next close may request again.
    if (send.kind === 'rating_request' && send.status === 'queued') {
      const ticket = await repos.tickets.lockById(send.companyId, send.ticketId);
      if (ticket && ticket.status !== 'closed') return this.stop(repos, send, message, { type: 'skip', at: now, reason: 'TICKET_REOPENED' });
    }
    if (send.status === 'sending') {
      const { state } = transition(ticketSendDecider, send, { type: 'retake', at: now });
      await repos.ticketSends.save(state);
      return { send: state, message, parts, earlierAttemptSince: send.claimedAt ?? send.createdAt };
    }
    // Checked again at send time: the job may run long after the close that queued it.
    if (capabilities.conversationWindow && message.content.type !== 'template') {
      if (!isConversationWindowOpen(await repos.conversationWindows.lastInbound(setor.id, message.phone), now)) {
        return this.stop(repos, send, message, { type: 'skip', at: now, reason: 'OFFICIAL_WINDOW_EXPIRED' });
      }
    }
    let charge;
    try {
      charge = await chargeSend(repos, send.companyId, send.keyMode, setor.id, now);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // The company cannot send now (balance, plan, daily limit): nothing was charged.
      return this.stop(repos, send, message, { type: 'skip', at: now, reason: error.code });
    }
    const { state } = transition(ticketSendDecider, send, { type: 'claim', at: now, charge: { debited: charge.debited, counted: charge.counted, day: charge.day } });
    await repos.ticketSends.save(state);
    const planned: MessageRecord = { ...message, parts: parts.map((content) => ({ content, providerMessageId: null })), senderNumber: instance.phoneNumber ?? message.senderNumber, updatedAt: now };
    await repos.messages.update(planned);
    return { send: state, message: planned, parts, earlierAttemptSince: null };
  }

  /**
   * A send that will not go: skipped (nothing charged), its timeline message failed with the reason,
   * `message.failed`. A send a dead run had claimed (charged) fails instead and gets its charge back:
   * whether that run reached the channel cannot be known once the box is gone, and a row left
   * `sending` would be retried for ever.
   */
  private async stop(repos: Repos, send: TicketSend, message: MessageRecord | null, command: Extract<TicketSendCommand, { type: 'skip' }>): Promise<TicketSendRun> {
    if (send.status === 'sending') {
      const { state } = transition(ticketSendDecider, send, { type: 'markFailed', at: command.at, code: command.reason, error: `Not sent: ${command.reason}` });
      await repos.ticketSends.save(state);
      if (send.charge) await refundSend(repos, send.companyId, { ...send.charge, setorId: send.setorId });
    } else {
      const { state } = transition(ticketSendDecider, send, command);
      await repos.ticketSends.save(state);
    }
    if (message) {
      const failed: MessageRecord = { ...message, status: 'failed', errorCode: command.reason as MessageRecord['errorCode'], error: `Not sent: ${command.reason}`, updatedAt: command.at };
      await repos.messages.update(failed);
      await repos.events.record([this.event('message.failed', failed, send, await this.recipientName(repos, failed))]);
    }
    await this.ratingNotSent(repos, send, command.at);
    return send.status === 'sending' ? 'failed' : 'skipped';
  }

  /** A rating request that did not go leaves its ticket's rating `not_sent`, not `requested` (GET /v1/ratings counts it so). */
  private async ratingNotSent(repos: Repos, send: TicketSend, at: Date): Promise<void> {
    if (send.kind !== 'rating_request') return;
    const ticket = await repos.tickets.lockById(send.companyId, send.ticketId);
    if (!ticket) return;
    const { state, events } = transition(ticketDecider, ticket, { type: 'ratingNotSent', at });
    if (events.length > 0 && state) await repos.tickets.save({ ...state, version: ticket.version + 1 }, ticket.version);
  }

  private async deliver(claimed: Claimed): Promise<SendResult[]> {
    const { send, message, parts } = claimed;
    const target = await this.uow.transaction(async (repos) => {
      const setor = await repos.setores.findByIdInCompany(send.companyId, send.setorId);
      const instance = setor ? await repos.channelInstances.findBySetor(setor.id) : null;
      return setor && instance ? { setor, instance } : null;
    });
    if (!target) return [{ ok: false, code: 'SENDER_DISCONNECTED', error: 'The box has no channel instance', providerFailure: false }];
    const results: SendResult[] = [];
    for (let part = 0; part < parts.length; part += 1) {
      let result: SendResult;
      try {
        result = await this.gateway.send({
          setor: target.setor,
          instance: target.instance,
          mode: send.keyMode,
          to: message.phone,
          content: parts[part]!,
          clientMessageId: ticketSendClientMessageId(send, part),
          ...(claimed.earlierAttemptSince ? { earlierAttemptSince: claimed.earlierAttemptSince } : {}),
        });
      } catch (error) {
        result = { ok: false, code: 'TEMP_NETWORK', error: error instanceof Error ? error.message : String(error), providerFailure: true };
      }
      results.push(result);
      if (!result.ok) break;
    }
    return results;
  }

  private async settle(repos: Repos, claimed: Claimed, results: SendResult[]): Promise<TicketSendRun> {
    const current = await repos.ticketSends.lockById(claimed.send.id);
    // Another run settled it meanwhile (a retried job beside a slow first run): it recorded the outcome once.
    if (!current || current.status !== 'sending') return 'lost';
    const at = this.clock.now();
    const message = (await repos.messages.findByIdForUpdate(current.companyId, current.id)) ?? claimed.message;
    const failure = results.find((r): r is Extract<SendResult, { ok: false }> => !r.ok);
    if (failure || results.length === 0) {
      const code = failure?.code ?? 'UNKNOWN';
      const error = failure?.error ?? 'Nothing to send';
      const { state } = transition(ticketSendDecider, current, { type: 'markFailed', at, code, error });
      await repos.ticketSends.save(state);
      if (current.charge) await refundSend(repos, current.companyId, { ...current.charge, setorId: current.setorId });
      const failed: MessageRecord = { ...message, status: 'failed', errorCode: code as MessageRecord['errorCode'], error, updatedAt: at };
      await repos.messages.update(failed);
      await repos.events.record([this.event('message.failed', failed, current, await this.recipientName(repos, failed))]);
      if (failure) await this.senderFailures.within(repos, { setorId: current.setorId, code: failure.code, error: failure.error });
      await this.ratingNotSent(repos, current, at);
      return 'failed';
    }
    const first = results[0] as Extract<SendResult, { ok: true }>;
    const { state } = transition(ticketSendDecider, current, { type: 'markSent', at, sentAt: first.sentAt });
    await repos.ticketSends.save(state);
    const sent: MessageRecord = {
      ...message,
      status: 'sent',
      parts: message.parts.map((p, i) => {
        const r = results[i];
        return r?.ok ? { ...p, providerMessageId: r.providerMessageId, ...(r.providerChatId ? { providerChatId: r.providerChatId } : {}) } : p;
      }),
      providerMessageId: first.providerMessageId,
      sentAt: first.sentAt,
      updatedAt: at,
    };
    await repos.messages.update(sent);
    await repos.conversations.touch(sent.conversationId, 'outbound', first.sentAt);
    await repos.events.record([this.event('message.sent', sent, current, await this.recipientName(repos, sent))]);
    return 'sent';
  }

  private async recipientName(repos: Repos, message: MessageRecord): Promise<string | null> {
    return (await repos.contacts.findById(message.companyId, message.contactId))?.name ?? null;
  }

  private event(event: 'message.sent' | 'message.failed', message: MessageRecord, send: TicketSend, recipientName: string | null): DomainEvent {
    return {
      id: this.ids.newId(),
      event,
      companyId: message.companyId,
      setorId: message.setorId,
      occurredAt: this.clock.now(),
      data: singleSendEventData(event, message, { ticketId: send.ticketId, kind: send.kind, recipientName }),
      actor: systemActor,
    };
  }
}

/**
 * Brings back sends whose worker died: a send still `queued` or `sending` whose row has not
 * changed for a lease has its job enqueued again (a killed worker's pg-boss job stays active until
 * it expires). The row is touched, so a send gets at most one more job per lease. A second job for a send is harmless: `DeliverTicketSend` finds it done, or takes it
 * over with the same client ids. Run at worker start and every minute.
 */
export class SweepTicketSends {
  constructor(
    private readonly uow: UnitOfWork<TicketSendRepositories>,
    private readonly clock: Clock,
    private readonly leaseMs: number,
  ) {}

  async execute(): Promise<number> {
    return this.uow.transaction(async (repos) => {
      const now = this.clock.now();
      const stale = await repos.ticketSends.listStale(new Date(now.getTime() - this.leaseMs), 500);
      let enqueued = 0;
      for (const id of stale) {
        const send = await repos.ticketSends.lockById(id);
        if (!send || (send.status !== 'queued' && send.status !== 'sending')) continue;
        // Touched, so that a send waiting behind a long queue gets one more job per lease, not one per sweep.
        await repos.ticketSends.save({ ...send, updatedAt: now });
        await enqueueTicketSend(repos.jobs, send);
        enqueued += 1;
      }
      return enqueued;
    });
  }
}
