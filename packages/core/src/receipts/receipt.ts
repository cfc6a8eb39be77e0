/**
 * What a provider (or the simulator) says happened to a message it accepted. Receipts only move
 * forward: sent < delivered < read; `failed` is final (conversations.md §3, Receipts).
 */
export type ReceiptStatus = 'delivered' | 'read' | 'failed';

/** One receipt as the adapters turn their providers' callbacks into it. */
export interface ReceiptInput {
  /** The provider's id of the message (the simulator's outbox id for simulated sends). */
  providerMessageId: string;
  /** The box that sent it, when the caller knows it (provider webhooks do); narrows the look-up. */
  setorId?: string | null;
  status: ReceiptStatus;
  /** When the provider says it happened; the clock's now when it does not say. */
  at?: Date | null;
}

/** The receipt state of a sent message, whichever table holds it. */
export interface ReceiptState {
  /** `failed` for a message that failed (final); `pending` for one not sent yet; else `sent`. */
  status: 'pending' | 'sent' | 'failed';
  deliveredAt: Date | null;
  readAt: Date | null;
}

/** What one receipt changes: the new timestamps and which events to emit, in order. */
export interface ReceiptAdvance {
  deliveredAt: Date | null;
  readAt: Date | null;
  /** `delivered` and/or `read`, each at most once over the message's life. */
  emitted: ('delivered' | 'read')[];
}

/**
 * Applies a receipt to a message's state. Only forward: a delivered receipt after read changes
 * nothing; a read first records both delivered and read (each once); a failed or unsent message
 * never moves; a `failed` receipt never undoes a send (the send was charged and reported
 * `message.sent`; the provider's late failure is not a state of ours).
 */
export function advanceReceipt(state: ReceiptState, status: ReceiptStatus, at: Date): ReceiptAdvance {
  const unchanged: ReceiptAdvance = { deliveredAt: state.deliveredAt, readAt: state.readAt, emitted: [] };
  if (state.status !== 'sent' || status === 'failed') return unchanged;
  const emitted: ('delivered' | 'read')[] = [];
  let deliveredAt = state.deliveredAt;
  let readAt = state.readAt;
  if (deliveredAt === null) {
    deliveredAt = at;
    emitted.push('delivered');
  }
  if (status === 'read' && readAt === null) {
    // A read can never precede its delivery, even when the provider's clocks say otherwise.
    readAt = at.getTime() < deliveredAt.getTime() ? deliveredAt : at;
    emitted.push('read');
  }
  return { deliveredAt, readAt, emitted };
}
