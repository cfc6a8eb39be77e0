import type { Conversation, InboundContactCandidate, InboundContactRecorded } from '../index.js';
import type { ConversationRepository } from '../index.js';
import { InMemoryContactRepository } from '../../contacts/testing/index.js';
import type { MessageRecord } from '../index.js';
import type { MessageRepository } from '../index.js';
import type { RotationCursorRepository } from '../../routing/index.js';
import type { InMemoryStore } from '../../shared/testing/in-memory-store.js';
import { InMemoryCompanyRecords } from '../../shared/testing/in-memory-company-records.js';
import type { DomainEvent } from '../../shared/domain-event.js';
import { conversationPhoneKey } from '../../channel/index.js';
import type { ContactAffinity } from '../../contacts/index.js';
import type { MessageRepositories } from '../message-repositories.js';
import type { RoutingRepositories } from '../../routing/index.js';

export class InMemoryRotationCursorRepository implements RotationCursorRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get rows() {
    return this.store.table('rotationCursors', () => new Map<string, number>());
  }
  async advance(key: string) {
    const next = (this.rows.get(key) ?? -1) + 1;
    this.rows.set(key, next);
    return next;
  }
}

export class InMemoryConversationRepository implements ConversationRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get rows() {
    return this.store.table('conversations', () => new Map<string, Conversation>());
  }
  async findOrCreate(candidate: Conversation) {
    const existing = await this.findBySetorAndContact(candidate.setorId, candidate.contactId);
    if (existing) return existing;
    this.rows.set(candidate.id, structuredClone(candidate));
    return structuredClone(candidate);
  }
  async findById(companyId: string, id: string) {
    const found = this.rows.get(id);
    return found && found.companyId === companyId ? structuredClone(found) : null;
  }
  async findBySetorAndContact(setorId: string, contactId: string) {
    const found = [...this.rows.values()].find((c) => c.setorId === setorId && c.contactId === contactId);
    return found ? structuredClone(found) : null;
  }
  async touch(id: string, direction: 'inbound' | 'outbound', at: Date) {
    const found = this.rows.get(id);
    if (!found) return;
    const later = (current: Date | null) => (current && current.getTime() > at.getTime() ? current : at);
    if (direction === 'inbound') found.lastInboundAt = later(found.lastInboundAt);
    else found.lastOutboundAt = later(found.lastOutboundAt);
    found.updatedAt = at;
  }
  async recordInbound(candidate: Conversation, phone: string, at: Date) {
    const conversation = await this.findOrCreate(candidate);
    await this.touch(conversation.id, 'inbound', at);
    // The tables of the channel and contacts fakes (InMemoryConversationWindowRepository, InMemoryContactAffinityRepository).
    const windows = this.store.table('conversationWindows', () => new Map<string, Date>());
    const key = `${candidate.setorId}|${conversationPhoneKey(phone)}`;
    const previous = windows.get(key);
    if (!previous || previous.getTime() < at.getTime()) windows.set(key, new Date(at));
    const affinities = this.store.table('contactAffinities', () => [] as ContactAffinity[]);
    if (!affinities.some((a) => a.contactId === conversation.contactId && a.setorId === conversation.setorId)) {
      affinities.push({ companyId: conversation.companyId, contactId: conversation.contactId, setorId: conversation.setorId, source: 'inbound', createdAt: new Date(at) });
    }
    return (await this.findById(conversation.companyId, conversation.id))!;
  }

  async recordInboundContacts(candidates: readonly InboundContactCandidate[]): Promise<(InboundContactRecorded | null)[]> {
    const contacts = new InMemoryContactRepository(this.store);
    const recorded: InboundContactRecorded[] = [];
    for (const candidate of candidates) {
      const stored = await contacts.insertOrLockInbound(candidate.contact);
      const conversation = await this.recordInbound({ ...candidate.conversation, contactId: stored.contact.id }, candidate.phone, candidate.at);
      recorded.push({ ...stored, conversation });
    }
    return recorded;
  }
}

export class InMemoryMessageRepository extends InMemoryCompanyRecords<MessageRecord> implements MessageRepository {
  constructor(store: InMemoryStore) {
    super(store, (s) => s.table('messages', () => new Map<string, MessageRecord>()));
  }
  async insertWithEvents(message: MessageRecord, events: readonly DomainEvent[]) {
    await this.insert(message);
    // As InMemoryEventOutbox.record.
    this.store.events.push(...structuredClone(events));
  }
  async insertAllWithEvents(messages: readonly MessageRecord[], events: readonly DomainEvent[]) {
    for (const message of messages) await this.insert(message);
    this.store.events.push(...structuredClone(events));
  }
  async findInboundByProviderIds(keys: readonly { setorId: string; providerMessageId: string }[]) {
    const found: MessageRecord[] = [];
    for (const key of keys) {
      const message = await this.findInboundByProviderId(key.setorId, key.providerMessageId);
      if (message && !found.some((m) => m.id === message.id)) found.push(message);
    }
    return found;
  }
  async findInboundByProviderId(setorId: string, providerMessageId: string) {
    const found = [...this.records.values()].find((m) => m.direction === 'inbound' && m.setorId === setorId && m.providerMessageId === providerMessageId);
    return found ? structuredClone(found) : null;
  }
  /** Every record, oldest first (test helper). */
  all(): MessageRecord[] {
    return [...this.records.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((m) => structuredClone(m));
  }
}

/** The message and routing areas' fakes over one store. */
export function inMemoryMessageRepositories(store: InMemoryStore): MessageRepositories & RoutingRepositories {
  return {
    conversations: new InMemoryConversationRepository(store),
    messages: new InMemoryMessageRepository(store),
    rotationCursors: new InMemoryRotationCursorRepository(store),
  };
}
