import type { ReceiptState } from './receipt.js';

/** A sent message a receipt names: a single send (`message`) or a campaign message. */
export interface ReceiptTarget extends ReceiptState {
  kind: 'message' | 'campaign_message';
  id: string;
  companyId: string;
  /** The box that sent it (a campaign message: the one that actually sent). */
  setorId: string;
  /** Campaign messages only. */
  campaignId: string | null;
  /** Single sends only. */
  conversationId: string | null;
  ticketId: string | null;
  /** E.164. */
  phone: string;
  providerMessageId: string | null;
}

/** How a receipt names its message. */
export type ReceiptLookup =
  | { providerMessageId: string; setorId?: string | null }
  /** The operator's simulator route: an API message id, or a campaign message id. */
  | { messageId: string };

/**
 * Finds and writes the receipt state of sent messages, across single sends (`messages`) and
 * campaign messages. Reads lock the row until the transaction ends, so two receipts of one
 * message serialise and each event is emitted once.
 */
export interface MessageReceiptRepository {
  /** The outbound message the lookup names, locked; null when none. */
  findForUpdate(lookup: ReceiptLookup): Promise<ReceiptTarget | null>;
  /**
   * `findForUpdate` of many lookups at once (a sweep of simulated receipts): one answer per lookup, in their
   * order, null where none; a message named twice is answered twice. Every row found is locked until the
   * transaction ends.
   */
  findManyForUpdate(lookups: readonly ReceiptLookup[]): Promise<(ReceiptTarget | null)[]>;
  /** Writes `deliveredAt` and `readAt` (and, for single sends, the status they imply). */
  save(target: ReceiptTarget): Promise<void>;
  /** `save` of many distinct messages at once. */
  saveMany(targets: readonly ReceiptTarget[]): Promise<void>;
}
export const MessageReceiptRepository = Symbol.for('carteiro.MessageReceiptRepository');

/** A simulated send whose delivery receipt is due (SIMULATOR_RECEIPT_DELAY_MS after it was sent). */
export interface DueSimulatedReceipt {
  /** The simulator's outbox id: the provider message id of the send. */
  id: string;
  setorId: string;
  sentAt: Date;
}

/**
 * The simulator's pending delivery receipts, kept in its outbox table (so no process holds a timer
 * per message): every successful simulated send is due once, `delay` after `sentAt`.
 */
export interface SimulatorReceiptRepository {
  /** Up to `limit` sends made at or before `sentBefore` whose receipt is still pending, oldest first, locked (others skip them). */
  claimDue(sentBefore: Date, limit: number): Promise<DueSimulatedReceipt[]>;
  /** Marks their receipts done (delivered, or given up). */
  markDone(receipts: readonly Pick<DueSimulatedReceipt, 'id' | 'sentAt'>[]): Promise<void>;
}
export const SimulatorReceiptRepository = Symbol.for('carteiro.SimulatorReceiptRepository');

/** The box a provider account names, for provider webhooks. */
export interface ProviderAccountSetor {
  setorId: string;
  companyId: string;
}

/**
 * Finds the box behind a provider's account: the QR provider's instance (named
 * `carteiro-<instance id>`, or the instance's provider reference) or an official number's Cloud
 * API `phone_number_id`.
 */
export interface ProviderAccountRepository {
  setorOfQrInstance(instanceName: string): Promise<ProviderAccountSetor | null>;
  setorOfOfficialNumber(phoneNumberId: string): Promise<ProviderAccountSetor | null>;
}
export const ProviderAccountRepository = Symbol.for('carteiro.ProviderAccountRepository');

/** The instance id in a QR-provider instance name `carteiro-<instance id>`, or null. */
export function instanceIdOfQrName(name: string): string | null {
  const match = /^carteiro-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(name);
  return match ? match[1]!.toLowerCase() : null;
}
