import type { Conversation } from './conversation.js';
import type { Contact } from '../contacts/index.js';

/** A contact writing to a setor, as {@link ConversationRepository.recordInboundContacts} takes it. */
export interface InboundContactCandidate {
  /** The contact to insert when the company has none with its match key (`createContact`). */
  contact: Contact;
  /** The conversation to insert when the setor and contact have none (its `contactId` is `contact.id`). */
  conversation: Conversation;
  /** E.164. */
  phone: string;
  at: Date;
}

/** What {@link ConversationRepository.recordInboundContacts} recorded for one candidate. */
export interface InboundContactRecorded {
  /** Inserted, or the stored one locked until the transaction ends. */
  contact: Contact;
  created: boolean;
  /** As `recordInbound` answers it. */
  conversation: Conversation;
}

/** Stores conversations (one per setor and contact). */
export interface ConversationRepository {
  /** Inserts `candidate` unless the setor and contact already have one; answers the stored one. */
  findOrCreate(candidate: Conversation): Promise<Conversation>;
  findById(companyId: string, id: string): Promise<Conversation | null>;
  findBySetorAndContact(setorId: string, contactId: string): Promise<Conversation | null>;
  /** Records a message of the contact (inbound) or of the setor (outbound) at `at`. */
  touch(id: string, direction: 'inbound' | 'outbound', at: Date): Promise<void>;
  /**
   * What an inbound message from `phone` records, as one write (the inbound path runs it per message):
   * {@link findOrCreate} then {@link touch} inbound at `at`, the setor's 24-hour window of `phone`
   * (`ConversationWindowRepository.recordInbound`) and the contact's affinity to the setor, source `inbound`
   * (`ContactAffinityRepository.add`, kept when one exists). Answers the stored conversation as touched.
   */
  recordInbound(candidate: Conversation, phone: string, at: Date): Promise<Conversation>;
  /**
   * `ContactRepository.insertOrLockInbound` then {@link recordInbound} for several contacts writing at once (an inbound
   * group), as one write. The candidates have distinct match keys per company. Answers, in order, what was recorded for
   * each, or null for a candidate whose contact another transaction inserted and committed during the write (the
   * caller then records it with the one-contact methods).
   */
  recordInboundContacts(candidates: readonly InboundContactCandidate[]): Promise<(InboundContactRecorded | null)[]>;
}
export const ConversationRepository = Symbol.for('carteiro.ConversationRepository');
