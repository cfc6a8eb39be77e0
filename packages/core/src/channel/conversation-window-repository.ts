/**
 * The 24-hour conversation window of official setores: when each contact last wrote to each setor.
 * Simulated inbound messages (and, later, provider webhooks) record; official sends read.
 * Phones are matched through `conversationPhoneKey` (Brazilian ninth-digit variants are one contact).
 */
export interface ConversationWindowRepository {
  /** Records an inbound message from `phone` to the setor at `at` (keeps the latest instant). */
  recordInbound(setorId: string, phone: string, at: Date): Promise<void>;
  /** When `phone` last wrote to the setor, or null if never. */
  lastInbound(setorId: string, phone: string): Promise<Date | null>;
}
export const ConversationWindowRepository = Symbol.for('carteiro.ConversationWindowRepository');
