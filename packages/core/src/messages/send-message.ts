import type { KeyMode } from '../api-keys/index.js';
import type { ChannelGateway, SendResult } from '../channel/index.js';
import { isConversationWindowOpen } from '../channel/index.js';
import type { SenderFailureInput } from '../channel/index.js';
import type { OutboundContent } from '../channel/index.js';
import { readableFailure, type SendFailureCode } from '../channel/index.js';
import type { Company } from '../companies/index.js';
import type { Contact } from '../contacts/index.js';
import { chargeSend, refundSend, sendBlocker, type SendCharge } from '../credits/index.js';
import { apiActor, type DomainEvent, type EventActor, type EventName } from '../shared/domain-event.js';
import { normalizePhone } from '../phone/index.js';
import { pickSender, resolveSenderPool, selectionMode, type SenderSetor, type SenderSelection } from '../routing/index.js';
import type { Clock } from '../shared/clock.js';
import { DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { planOutboundContent } from './content-planner.js';
import { newConversation } from './conversation.js';
import { FRESH_MESSAGE_FIELDS, type MessageRecord } from './message.js';
import type { MessageThreads, ThreadSend } from './message-threads.js';
import type { MessageContent } from './message-content.js';
import type { ChannelRepositories } from '../channel/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import type { MessageRepositories } from './message-repositories.js';
import type { RoutingRepositories } from '../routing/index.js';
import type { SetorRepositories } from '../setores/index.js';
import type { TagRepositories } from '../tags/index.js';
import type { TeamRepositories } from '../teams/index.js';
import type { UsageRepositories } from '../usage/index.js';

/** The part of the channel's sender-failure service a send needs: `HandleSenderFailure.within`. */
type SenderFailures = { within(repos: Repositories<ChannelRepositories & CompanyRepositories & ContactRepositories & MessageRepositories & RoutingRepositories & SetorRepositories & TagRepositories & TeamRepositories & UsageRepositories>, input: SenderFailureInput): Promise<unknown> };

/** One synchronous send (POST /v1/messages, /interactive, /event, /poll). */
export interface SendMessageCommand {
  companyId: string;
  keyMode: KeyMode;
  /** Recipient as typed (any accepted form); `clientId` wins when both are given. */
  phone?: string | null;
  clientId?: string | null;
  selection?: SenderSelection;
  /** Already validated (`standardContent`, `validateInteractive`, `validatePoll`, `validateEvent`). */
  content: MessageContent;
  /** A reply on a ticket (POST /v1/tickets/:id/messages); without it the send joins the box's active ticket, if any. */
  thread?: ThreadSend;
  /** `X-Actor-User-Id`: the events' `actor.user_id`. */
  actorUserId?: string | null;
}

/** POST /v1/messages/first-contact: always by phone; creates the contact, the affinity and tags. */
export interface FirstContactCommand {
  companyId: string;
  keyMode: KeyMode;
  phone: string;
  /** Used when the contact is created. */
  name?: string | null;
  tagIds?: readonly string[] | null;
  selection?: SenderSelection;
  content: MessageContent;
}

/** What a successful send answers. */
export interface SingleSendOutcome {
  messageId: string;
  /** E.164 recipient. */
  phone: string;
  status: 'sent';
  setorId: string;
  senderNumber: string | null;
  sentAt: Date;
  contactId: string;
  conversationId: string;
  /** First contact only: whether this send created the contact-setor affinity. */
  affinityCreated?: boolean;
  /** First contact only: whether this send created the contact. */
  contactCreated?: boolean;
  /** The ticket the message joined (null: none). */
  ticketId: string | null;
  /** The stored message, as the ticket timeline shows it. */
  message: MessageRecord;
}

interface Recipient {
  phone: string;
  contact: Contact | null;
}

interface Prepared {
  company: Company;
  recipient: Recipient;
  box: SenderSetor;
  parts: OutboundContent[];
}

/**
 * Synchronous single sends. The order of a send:
 * 1. validate (400), refuse a blocked company (402), pick the setor (400/403/404), plan the
 *    channel messages for the setor (400) and apply the official rules (first contact only by
 *    template: 400; closed 24-hour window: 422 WINDOW_EXPIRED);
 * 2. one short transaction charges the send (avulso debit never below zero, daily count; test
 *    keys are never charged) and stores the pending message with its contact and conversation;
 * 3. the channel messages go out, outside any transaction;
 * 4. one transaction settles it: sent (affinity, tags, `message.sent`) or failed (refund,
 *    `message.failed`, a sender failure disconnects the setor), and a failure answers 502
 *    PROVIDER_ERROR (provider down) or 422.
 */
export class SendMessage {
  constructor(
    private readonly uow: UnitOfWork<ChannelRepositories & CompanyRepositories & ContactRepositories & MessageRepositories & RoutingRepositories & SetorRepositories & TagRepositories & TeamRepositories & UsageRepositories>,
    private readonly repos: Repositories<ChannelRepositories & CompanyRepositories & ContactRepositories & MessageRepositories & RoutingRepositories & SetorRepositories & TagRepositories & TeamRepositories & UsageRepositories>,
    private readonly gateway: ChannelGateway,
    private readonly senderFailures: SenderFailures,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    /** The tickets the sends join; absent: none (tests of sending alone). */
    private readonly threads: MessageThreads | null = null,
  ) {}

  async send(command: SendMessageCommand): Promise<SingleSendOutcome> {
    const now = this.clock.now();
    const company = await this.company(command.companyId);
    const recipient = await this.recipient(company, command.phone, command.clientId);
    const prepared = await this.prepare(company, command.keyMode, recipient, command.selection ?? {}, command.content, false, now);
    return this.deliver(command.keyMode, command.content, prepared, null, command.thread ?? null, command.actorUserId ?? null);
  }

  async sendFirstContact(command: FirstContactCommand): Promise<SingleSendOutcome> {
    const now = this.clock.now();
    const company = await this.company(command.companyId);
    // National numbers (no country code) are read in the company's country.
    const phone = normalizePhone(command.phone, 'phone', company.defaultCountry);
    const tagIds = [...new Set(command.tagIds ?? [])];
    if (tagIds.length > 0) {
      const found = await this.repos.tags.findManyByIds(command.companyId, tagIds);
      const missing = tagIds.filter((id) => !found.some((t) => t.id === id));
      if (missing.length > 0) throw new NotFoundError('Tag', { tag_ids: missing });
    }
    const contact = await this.repos.contacts.findByPhone(command.companyId, phone);
    const prepared = await this.prepare(company, command.keyMode, { phone, contact }, command.selection ?? {}, command.content, true, now);
    return this.deliver(command.keyMode, command.content, prepared, { name: command.name ?? null, tagIds }, null, null);
  }

  private async company(companyId: string): Promise<Company> {
    const company = await this.repos.companies.findById(companyId);
    if (!company) throw new NotFoundError('Company');
    return company;
  }

  private async recipient(company: Company, phone?: string | null, clientId?: string | null): Promise<Recipient> {
    const companyId = company.id;
    if (clientId != null && clientId !== '') {
      const contact = await this.repos.contacts.findById(companyId, clientId);
      if (!contact) throw new NotFoundError('Contact', { client_id: clientId });
      return { phone: contact.phone, contact };
    }
    if (phone == null || phone === '') throw new ValidationError('phone or client_id is required', { fields: ['phone', 'client_id'] }, 'BAD_REQUEST');
    const normalized = normalizePhone(phone, 'phone', company.defaultCountry);
    return { phone: normalized, contact: await this.repos.contacts.findByPhone(companyId, normalized) };
  }

  private async prepare(
    company: Company,
    mode: KeyMode,
    recipient: Recipient,
    selection: SenderSelection,
    content: MessageContent,
    firstContact: boolean,
    now: Date,
  ): Promise<Prepared> {
    selectionMode(selection);
    if (mode === 'live') {
      const blocker = sendBlocker(company, now);
      if (blocker) throw blocker;
    }
    const box = await this.pickBox(company, recipient, selection, firstContact, now);
    const capabilities = this.gateway.capabilities(box.setor, mode);
    const parts = planOutboundContent(content, capabilities, { timeZone: company.timezone });
    if (capabilities.conversationWindow && content.type !== 'template') {
      const lastInbound = await this.repos.conversationWindows.lastInbound(box.setor.id, recipient.phone);
      if (!isConversationWindowOpen(lastInbound, now)) {
        if (firstContact) {
          throw new ValidationError(
            'On an official-channel number a first contact opens the conversation with the 24-hour window closed: send an approved template (template_name)',
            { field: 'template_name', setor_id: box.setor.id },
          );
        }
        throw new DomainError('WINDOW_EXPIRED', readableFailure.OFFICIAL_WINDOW_EXPIRED, {
          error_code: 'OFFICIAL_WINDOW_EXPIRED',
          setor_id: box.setor.id,
          last_inbound_at: lastInbound?.toISOString() ?? null,
        });
      }
    }
    return { company, recipient, box, parts };
  }

  /** First contacts without a setor choice go through a connected setor the contact already knows. */
  private async pickBox(company: Company, recipient: Recipient, selection: SenderSelection, firstContact: boolean, now: Date): Promise<SenderSetor> {
    if (firstContact && selectionMode(selection) === 'auto' && recipient.contact) {
      const affinities = await this.repos.contactAffinities.listByContact(company.id, recipient.contact.id);
      for (const affinity of affinities) {
        const setor = await this.repos.setores.findByIdInCompany(company.id, affinity.setorId);
        const instance = setor ? await this.repos.channelInstances.findBySetor(setor.id) : null;
        if (setor && instance?.status === 'connected') return { setor, instance };
      }
    }
    const pool = await resolveSenderPool(this.repos, company, selection);
    return pickSender(pool, this.repos.rotationCursors, now);
  }

  private async deliver(
    mode: KeyMode,
    content: MessageContent,
    prepared: Prepared,
    firstContact: { name: string | null; tagIds: string[] } | null,
    thread: ThreadSend | null,
    actorUserId: string | null,
  ): Promise<SingleSendOutcome> {
    const { company, recipient, box, parts } = prepared;
    const actor = actorUserId ? { user_id: actorUserId, source: 'api' } : apiActor;
    const messageId = this.ids.newId();
    const reservedAt = this.clock.now();
    // Test keys touch no balance or count, but their sends do record events: like a payment API's test mode,
    // a developer sees the webhooks their integration will receive (campaigns behave the same way).
    const emits = true;

    const reserved = await this.uow.transaction(async (repos) => {
      const charge = await chargeSend(repos, company.id, mode, box.setor.id, reservedAt);
      const [contact] = await repos.contacts.ensureMany(company.id, [{ phone: recipient.phone, name: firstContact?.name ?? null }], this.ids, reservedAt);
      const conversation = await repos.conversations.findOrCreate(newConversation(this.ids.newId(), company.id, box.setor.id, contact!.id, reservedAt));
      // A closed ticket refuses the reply (409 TICKET_CLOSED): the transaction, charge included, rolls back.
      const ticketId = this.threads
        ? await this.threads.join(repos, { companyId: company.id, setorId: box.setor.id, contactId: contact!.id, ticketId: thread?.ticketId ?? null, at: reservedAt })
        : null;
      const message: MessageRecord = {
        id: messageId,
        companyId: company.id,
        conversationId: conversation.id,
        setorId: box.setor.id,
        contactId: contact!.id,
        phone: recipient.phone,
        senderNumber: box.instance.phoneNumber,
        keyMode: mode,
        content,
        parts: parts.map((p) => ({ content: p, providerMessageId: null })),
        status: 'pending',
        providerMessageId: null,
        ...FRESH_MESSAGE_FIELDS,
        createdAt: reservedAt,
        updatedAt: reservedAt,
        ticketId,
        direction: 'outbound',
        type: 'message',
        author: thread?.author ?? { type: 'api', id: null },
      };
      await repos.messages.insert(message);
      if (emits && contact!.created) {
        await repos.events.record([this.event('contact.created', company.id, box.setor.id, actor, { contactId: contact!.id, phone: contact!.phone, name: contact!.name, source: firstContact ? 'first_contact' : 'message' })]);
      }
      return { charge, message, contact: contact! };
    });

    const results: SendResult[] = [];
    for (let i = 0; i < parts.length; i += 1) {
      const result = await this.sendPart(box, mode, recipient.phone, parts[i]!, `${messageId}:${i}`);
      results.push(result);
      if (!result.ok) break;
    }
    const failure = results.find((r) => !r.ok);
    if (failure && !failure.ok) return this.settleFailure(reserved.message, reserved.charge, failure, emits, actor);
    return this.settleSuccess(reserved.message, reserved.contact, results, emits, firstContact, box, actor);
  }

  private async sendPart(box: SenderSetor, mode: KeyMode, to: string, content: OutboundContent, clientMessageId: string): Promise<SendResult> {
    try {
      return await this.gateway.send({ setor: box.setor, instance: box.instance, mode, to, content, clientMessageId });
    } catch (error) {
      // A gateway that throws instead of classifying is a provider failure: the credit comes back.
      const text = error instanceof Error ? error.message : String(error);
      return { ok: false, code: 'TEMP_NETWORK', error: text, providerFailure: true };
    }
  }

  private async settleSuccess(
    pending: MessageRecord,
    contact: Contact & { created: boolean },
    results: SendResult[],
    emits: boolean,
    firstContact: { name: string | null; tagIds: string[] } | null,
    box: SenderSetor,
    actor: EventActor,
  ): Promise<SingleSendOutcome> {
    const sentAt = this.clock.now();
    const providerIds = results.map((r) => (r.ok ? r.providerMessageId : null));
    const message: MessageRecord = {
      ...pending,
      status: 'sent',
      parts: pending.parts.map((p, i) => {
        const result = results[i];
        const chatId = result?.ok ? result.providerChatId : undefined;
        return { ...p, providerMessageId: providerIds[i] ?? null, ...(chatId ? { providerChatId: chatId } : {}) };
      }),
      providerMessageId: providerIds[0] ?? null,
      sentAt,
      updatedAt: sentAt,
    };
    const affinityCreated = await this.uow.transaction(async (repos) => {
      await repos.messages.update(message);
      await repos.conversations.touch(message.conversationId, 'outbound', sentAt);
      if (message.ticketId && this.threads) await this.threads.sent(repos, message, sentAt);
      const events: DomainEvent[] = [this.messageEvent('message.sent', message, contact.name, actor)];
      let created = false;
      if (firstContact) {
        created = await repos.contactAffinities.add({ companyId: message.companyId, contactId: contact.id, setorId: box.setor.id, source: 'first_contact', createdAt: sentAt });
        const added = await repos.tags.tagContact(contact.id, firstContact.tagIds, sentAt);
        if (added.length > 0) events.push(this.event('contact.tagged', message.companyId, box.setor.id, actor, { contactId: contact.id, tagIds: added, source: 'first_contact', ruleId: null }));
      }
      if (emits) await repos.events.record(events);
      return created;
    });
    const outcome: SingleSendOutcome = {
      messageId: message.id,
      phone: message.phone,
      status: 'sent',
      setorId: message.setorId,
      senderNumber: message.senderNumber,
      sentAt,
      contactId: contact.id,
      conversationId: message.conversationId,
      ticketId: message.ticketId ?? null,
      message,
    };
    if (firstContact) {
      outcome.affinityCreated = affinityCreated;
      outcome.contactCreated = contact.created;
    }
    return outcome;
  }

  private async settleFailure(
    pending: MessageRecord,
    charge: SendCharge,
    failure: Extract<SendResult, { ok: false }>,
    emits: boolean,
    actor: EventActor,
  ): Promise<never> {
    const at = this.clock.now();
    const message: MessageRecord = { ...pending, status: 'failed', errorCode: failure.code, error: failure.error, updatedAt: at };
    await this.uow.transaction(async (repos) => {
      await repos.messages.update(message);
      await refundSend(repos, message.companyId, charge);
      const contact = await repos.contacts.findById(message.companyId, message.contactId);
      if (emits) await repos.events.record([this.messageEvent('message.failed', message, contact?.name ?? null, actor)]);
      await this.senderFailures.within(repos, { setorId: message.setorId, code: failure.code, error: failure.error });
    });
    throw failureError(message, failure);
  }

  private messageEvent(event: 'message.sent' | 'message.failed', message: MessageRecord, recipientName: string | null, actor: EventActor): DomainEvent {
    return this.event(event, message.companyId, message.setorId, actor, singleSendEventData(event, message, { ticketId: message.ticketId ?? null, recipientName }));
  }

  private event(event: EventName, companyId: string, setorId: string | null, actor: EventActor, data: Record<string, unknown>): DomainEvent {
    return { id: this.ids.newId(), event, companyId, setorId, occurredAt: this.clock.now(), data, actor };
  }
}

/** The error a failed single send answers with (after its credit was refunded). */
export function failureError(message: Pick<MessageRecord, 'id' | 'setorId'>, failure: { code: SendFailureCode; error: string; providerFailure: boolean }): DomainError {
  const details = { message_id: message.id, setor_id: message.setorId, error_code: failure.code, erro_legivel: readableFailure[failure.code], error: failure.error };
  if (failure.providerFailure) return new DomainError('PROVIDER_ERROR', 'The channel provider failed to deliver the message; the credit was refunded', details);
  if (failure.code === 'OFFICIAL_WINDOW_EXPIRED') return new DomainError('WINDOW_EXPIRED', readableFailure.OFFICIAL_WINDOW_EXPIRED, details);
  return new DomainError('UNPROCESSABLE', `The message was not delivered: ${readableFailure[failure.code]}`, details);
}

/**
 * The data of the `message.sent` / `message.failed` event of a send that is no campaign's: a
 * single send, or an automatic ticket message, which also names its `kind`.
 */
export function singleSendEventData(
  event: 'message.sent' | 'message.failed',
  message: MessageRecord,
  about: { ticketId: string | null; kind?: string; recipientName: string | null },
): Record<string, unknown> {
  const sent = event === 'message.sent';
  return {
    campaignId: null,
    detailId: message.id,
    messageId: message.id,
    conversationId: message.conversationId,
    ticketId: about.ticketId,
    ...(about.kind === undefined ? {} : { kind: about.kind }),
    recipientPhone: message.phone,
    recipientName: about.recipientName,
    status: sent ? 'sent' : 'failed',
    error: sent ? null : message.error,
    error_code: sent ? null : message.errorCode,
    actual_setor_id: sent ? message.setorId : null,
    was_reassigned: false,
    providerMessageId: message.providerMessageId,
  };
}
