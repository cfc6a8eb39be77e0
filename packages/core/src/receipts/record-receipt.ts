import { systemActor, type DomainEvent } from '../shared/domain-event.js';
import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { DueSimulatedReceipt, ReceiptLookup, ReceiptTarget } from './message-receipt-repository.js';
import { advanceReceipt, type ReceiptStatus } from './receipt.js';
import type { ReceiptRepositories } from './receipt-repositories.js';

/** What a receipt did. */
export interface ReceiptOutcome {
  /** False when no sent message carries the id (another system's message, or one we never recorded). */
  found: boolean;
  kind: ReceiptTarget['kind'] | null;
  messageId: string | null;
  /** The events emitted now (`[]`: a repeat or a backward move, nothing changed). */
  emitted: ('delivered' | 'read')[];
  deliveredAt: Date | null;
  readAt: Date | null;
}

/** One receipt of a batch: which message, which state, when. */
export interface ReceiptToRecord {
  lookup: ReceiptLookup;
  status: ReceiptStatus;
  at: Date;
}

const notFound = (): ReceiptOutcome => ({ found: false, kind: null, messageId: null, emitted: [], deliveredAt: null, readAt: null });

/**
 * Applies receipts inside the caller's transaction, in their order: locks their messages, moves each forward
 * (`advanceReceipt`; a message named twice moves from what the first receipt left) and records
 * `message.delivered` / `message.read` for what changed. A batch costs the same few statements as one receipt:
 * the simulator's sweep applies a receipt per simulated send.
 */
export async function recordReceiptsWithin(repos: Repositories<ReceiptRepositories>, ids: IdGenerator, inputs: readonly ReceiptToRecord[]): Promise<ReceiptOutcome[]> {
  if (inputs.length === 0) return [];
  const found = await repos.messageReceipts.findManyForUpdate(inputs.map((input) => input.lookup));
  const current = new Map<string, ReceiptTarget>();
  const changed = new Map<string, ReceiptTarget>();
  const events: DomainEvent[] = [];
  const outcomes = inputs.map((input, i): ReceiptOutcome => {
    const hit = found[i];
    if (!hit) return notFound();
    const key = `${hit.kind}:${hit.id}`;
    const target = current.get(key) ?? hit;
    const advance = advanceReceipt(target, input.status, input.at);
    if (advance.emitted.length > 0) {
      const updated: ReceiptTarget = { ...target, deliveredAt: advance.deliveredAt, readAt: advance.readAt };
      current.set(key, updated);
      changed.set(key, updated);
      for (const which of advance.emitted) events.push(receiptEvent(ids, updated, which, which === 'read' ? advance.readAt! : advance.deliveredAt!));
    }
    return { found: true, kind: target.kind, messageId: target.id, emitted: advance.emitted, deliveredAt: advance.deliveredAt, readAt: advance.readAt };
  });
  if (changed.size > 0) {
    await repos.messageReceipts.saveMany([...changed.values()]);
    await repos.events.record(events);
  }
  return outcomes;
}

/** One receipt inside the caller's transaction (`recordReceiptsWithin` of one). */
export async function recordReceiptWithin(
  repos: Repositories<ReceiptRepositories>,
  ids: IdGenerator,
  lookup: ReceiptLookup,
  status: ReceiptStatus,
  at: Date,
): Promise<ReceiptOutcome> {
  const [outcome] = await recordReceiptsWithin(repos, ids, [{ lookup, status, at }]);
  return outcome!;
}

/** The `message.delivered` / `message.read` event of conversations.md §8. */
function receiptEvent(ids: IdGenerator, target: ReceiptTarget, which: 'delivered' | 'read', at: Date): DomainEvent {
  const single = target.kind === 'message';
  return {
    id: ids.newId(),
    event: which === 'read' ? 'message.read' : 'message.delivered',
    companyId: target.companyId,
    setorId: target.setorId,
    occurredAt: at,
    data: {
      messageId: single ? target.id : null,
      campaignId: target.campaignId,
      detailId: target.id,
      conversationId: target.conversationId,
      ticketId: target.ticketId,
      recipientPhone: target.phone,
      providerMessageId: target.providerMessageId,
      actual_setor_id: target.setorId,
      status: which,
      ...(which === 'read' ? { readAt: at.toISOString() } : { deliveredAt: at.toISOString() }),
    },
    actor: systemActor,
  };
}

/**
 * A delivery or read receipt from a provider webhook or the simulator, in its own transaction.
 * Receipts of unknown ids are ignored (answered `found: false`): providers report messages sent
 * outside this service too.
 */
export class RecordReceipt {
  constructor(
    private readonly uow: UnitOfWork<ReceiptRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  execute(lookup: ReceiptLookup, status: ReceiptStatus, at?: Date | null): Promise<ReceiptOutcome> {
    return this.uow.transaction((repos) => recordReceiptWithin(repos, this.ids, lookup, status, at ?? this.clock.now()));
  }
}

/** The most simulated receipts one sweep applies per transaction. */
export const SIMULATED_RECEIPT_BATCH = 200;
/** A simulated send whose message record has not appeared this long after it was due is given up. */
export const SIMULATED_RECEIPT_GIVE_UP_MS = 5 * 60 * 1000;

/**
 * The simulator's delivery receipts (`SIMULATOR_RECEIPT_DELAY_MS`): one sweep turns the simulated
 * sends made at least `delayMs` ago into `delivered`, in batches that other sweeping processes skip
 * (the rows are claimed with SKIP LOCKED). A send whose record is not there yet (the sender has not
 * committed) waits for the next sweep, and is given up after a few minutes (a failed or
 * never-recorded send). Answers how many receipts were applied.
 */
export class DeliverSimulatedReceipts {
  constructor(
    private readonly uow: UnitOfWork<ReceiptRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async sweep(delayMs: number): Promise<number> {
    if (delayMs <= 0) return 0;
    let applied = 0;
    for (;;) {
      const batch = await this.uow.transaction(async (repos) => {
        const now = this.clock.now();
        const due = await repos.simulatorReceipts.claimDue(new Date(now.getTime() - delayMs), SIMULATED_RECEIPT_BATCH);
        const inputs = due.map((receipt): ReceiptToRecord => ({
          lookup: { providerMessageId: receipt.id, setorId: receipt.setorId },
          status: 'delivered',
          at: new Date(receipt.sentAt.getTime() + delayMs),
        }));
        const outcomes = await recordReceiptsWithin(repos, this.ids, inputs);
        const done: DueSimulatedReceipt[] = [];
        let count = 0;
        outcomes.forEach((outcome, i) => {
          if (outcome.found || now.getTime() - inputs[i]!.at.getTime() > SIMULATED_RECEIPT_GIVE_UP_MS) done.push(due[i]!);
          if (outcome.emitted.length > 0) count += 1;
        });
        await repos.simulatorReceipts.markDone(done);
        return { claimed: due.length, done: done.length, count };
      });
      applied += batch.count;
      // Stop when the batch was not full, or when nothing in it could be settled (records still to come).
      if (batch.claimed < SIMULATED_RECEIPT_BATCH || batch.done === 0) return applied;
    }
  }
}
