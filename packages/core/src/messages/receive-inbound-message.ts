import { CONVERSATION_WINDOW_MS } from '../channel/index.js';
import { systemActor, type DomainEvent } from '../shared/domain-event.js';
import { normalizePhone } from '../phone/index.js';
import type { Clock } from '../shared/clock.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { newConversation } from './conversation.js';
import { MAX_TEXT_LENGTH } from './message-content.js';
import type { ChannelRepositories } from '../channel/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { MessageRepositories } from './message-repositories.js';
import type { SetorRepositories } from '../setores/index.js';
import { applyInboundTagRules, type TagRepositories } from '../tags/index.js';

export interface InboundMessageInput {
  setorId: string;
  /** The contact's number, in any accepted form. */
  from: string;
  text: string;
}

export interface InboundMessageResult {
  messageId: string;
  companyId: string;
  setorId: string;
  /** E.164. */
  from: string;
  contactId: string;
  contactCreated: boolean;
  conversationId: string;
  conversationCreated: boolean;
  receivedAt: Date;
  /** Until when an official setor may send free text to the contact. */
  windowOpenUntil: Date;
  /** Tags the company's rules put on the contact for this text. */
  tagsAdded: string[];
}

/** Reacts to a received text after it is recorded (in its own transaction). */
export interface InboundMessageListener {
  onInbound(result: InboundMessageResult, text: string): Promise<void>;
}
export const InboundMessageListener = Symbol.for('carteiro.InboundMessageListener');

/**
 * A message from a contact to a setor (the simulator's POST /admin/v1/simulator/inbound, later
 * provider webhooks): finds or creates the contact and its conversation, opens the 24-hour
 * window, links the contact to the setor, and records `message.received` (with
 * `contact.created` and `conversation.created` when they are new) in one transaction.
 */
export class ReceiveInboundMessage {
  constructor(
    private readonly uow: UnitOfWork<ChannelRepositories & CompanyRepositories & ContactRepositories & MessageRepositories & SetorRepositories & TagRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    /** Other areas reacting to a received text once it is recorded (an appointment confirmed by a reply). */
    private readonly listeners: readonly InboundMessageListener[] = [],
  ) {}

  async execute(input: InboundMessageInput): Promise<InboundMessageResult> {
    const result = await this.record(input);
    for (const listener of this.listeners) await listener.onInbound(result, input.text);
    return result;
  }

  private async record(input: InboundMessageInput): Promise<InboundMessageResult> {
    if (typeof input.text !== 'string' || input.text.trim() === '') throw new ValidationError('text is required', { field: 'text' });
    if (input.text.length > MAX_TEXT_LENGTH) throw new ValidationError(`text is longer than ${MAX_TEXT_LENGTH} characters`, { field: 'text' });
    return this.uow.transaction(async (repos) => {
      const now = this.clock.now();
      const setor = await repos.setores.findById(input.setorId);
      if (!setor) throw new NotFoundError('Box', { setor_id: input.setorId });
      // A number without its country code is read in the setor's company's country.
      const company = await repos.companies.findById(setor.companyId);
      const from = normalizePhone(input.from, 'from', company?.defaultCountry);
      const [contact] = await repos.contacts.ensureMany(setor.companyId, [{ phone: from, name: null }], this.ids, now);
      const candidate = newConversation(this.ids.newId(), setor.companyId, setor.id, contact!.id, now);
      const conversation = await repos.conversations.findOrCreate(candidate);
      await repos.conversations.touch(conversation.id, 'inbound', now);
      await repos.conversationWindows.recordInbound(setor.id, from, now);
      await repos.contactAffinities.add({ companyId: setor.companyId, contactId: contact!.id, setorId: setor.id, source: 'inbound', createdAt: now });
      const messageId = this.ids.newId();
      const event = (name: DomainEvent['event'], data: Record<string, unknown>): DomainEvent => ({
        id: this.ids.newId(),
        event: name,
        companyId: setor.companyId,
        setorId: setor.id,
        occurredAt: now,
        data,
        actor: systemActor,
      });
      const events: DomainEvent[] = [];
      if (contact!.created) events.push(event('contact.created', { contactId: contact!.id, phone: from, name: null, source: 'inbound' }));
      // Auto-tagging reads inbound text only (never outbound, notes or ratings), so rules cannot loop.
      const tagged = await applyInboundTagRules(repos, this.ids, { companyId: setor.companyId, setorId: setor.id, contactId: contact!.id, text: input.text, at: now });
      const conversationCreated = conversation.id === candidate.id;
      if (conversationCreated) events.push(event('conversation.created', { conversationId: conversation.id, contactId: contact!.id, setorId: setor.id }));
      events.push(
        event('message.received', {
          messageId,
          conversationId: conversation.id,
          contactId: contact!.id,
          from,
          text: input.text,
          receivedAt: now.toISOString(),
        }),
      );
      await repos.events.record([...events, ...tagged.events]);
      return {
        messageId,
        companyId: setor.companyId,
        setorId: setor.id,
        from,
        contactId: contact!.id,
        contactCreated: contact!.created,
        conversationId: conversation.id,
        conversationCreated,
        receivedAt: now,
        windowOpenUntil: new Date(now.getTime() + CONVERSATION_WINDOW_MS),
        tagsAdded: tagged.contactTagIds,
      };
    });
  }
}
