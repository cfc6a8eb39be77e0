import type { MessageRecord } from './message.js';
import type { DomainEvent } from '../shared/domain-event.js';

/** Stores single-message records. Reads are scoped by company. */
export interface MessageRepository {
  insert(message: MessageRecord): Promise<void>;
  /** {@link insert} and `EventOutbox.record(events)` as one write (the inbound path runs it per message). */
  insertWithEvents(message: MessageRecord, events: readonly DomainEvent[]): Promise<void>;
  /** {@link insertWithEvents} for several messages (in order) and their events (in order) as one write (an inbound group). */
  insertAllWithEvents(messages: readonly MessageRecord[], events: readonly DomainEvent[]): Promise<void>;
  update(message: MessageRecord): Promise<void>;
  findById(companyId: string, id: string): Promise<MessageRecord | null>;
  /** The record, locked until the transaction ends (edits and reactions serialise on it). */
  findByIdForUpdate(companyId: string, id: string): Promise<MessageRecord | null>;
  /** The inbound message the setor received with this provider id (a provider repeating its webhook), or null. */
  findInboundByProviderId(setorId: string, providerMessageId: string): Promise<MessageRecord | null>;
  /** {@link findInboundByProviderId} for several setors and provider ids at once: the inbound messages found (any order). */
  findInboundByProviderIds(keys: readonly { setorId: string; providerMessageId: string }[]): Promise<MessageRecord[]>;
}
export const MessageRepository = Symbol.for('carteiro.MessageRepository');
