import type { Conversation } from './conversation.js';

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
}
export const ConversationRepository = Symbol.for('carteiro.ConversationRepository');
