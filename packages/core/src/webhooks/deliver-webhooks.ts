import type { Clock } from '../shared/clock.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { runDeliveryCommand, WEBHOOK_TIMEOUT_MS, type RetryPolicy } from './webhook-delivery.js';
import type { ClaimedDelivery, DeliveryUpdate } from './webhook-delivery-repository.js';
import { signWebhookPayload } from './webhook-signature.js';
import type { WebhookSender } from './webhook-sender.js';
import type { WebhookRepositories } from './webhook-repositories.js';

/**
 * The headers of one attempt. The timestamp is the attempt's own (Unix seconds), so a retry is
 * signed afresh; the id stays the delivery's.
 */
export function deliveryHeaders(
  delivery: { id: string; event: string; attempt: number },
  secret: string | null,
  body: string,
  now: Date,
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Carteiro-Webhooks/1.0',
    'x-webhook-id': delivery.id,
    'x-webhook-timestamp': String(timestamp),
    'x-webhook-event': delivery.event,
    'x-webhook-attempt': String(delivery.attempt),
  };
  if (secret !== null) headers['x-webhook-signature'] = signWebhookPayload(secret, timestamp, body);
  return headers;
}

/**
 * Attempts of deliveries: claim the due ones, make one attempt each, store what happened. The
 * three steps are apart so that a worker can run many attempts at once and store their outcomes
 * in batches; the network call never runs inside a transaction.
 */
export class DeliverWebhooks {
  constructor(
    private readonly uow: UnitOfWork<WebhookRepositories>,
    private readonly clock: Clock,
    private readonly sender: WebhookSender,
    private readonly policy: RetryPolicy,
    /** The receiver's time limit; 5 seconds (the specification's), shorter only in tests. */
    private readonly timeoutMs: number = WEBHOOK_TIMEOUT_MS,
  ) {}

  /** Leases up to `limit` due deliveries for `leaseMs` (longer than an attempt can take). */
  claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const now = this.clock.now();
    return this.uow.transaction((repos) => repos.webhookDeliveries.claimDue(now, limit, new Date(now.getTime() + leaseMs)));
  }

  /** Makes one attempt (or ends the delivery if its webhook was deactivated); stores nothing. */
  async attempt({ delivery, target }: ClaimedDelivery): Promise<DeliveryUpdate> {
    if (!target.active) return runDeliveryCommand(delivery, { type: 'abandon', at: this.clock.now(), reason: 'webhook is inactive' });
    const startedAt = this.clock.now();
    const outcome = await this.sender.send({
      url: target.url,
      body: delivery.payload,
      headers: deliveryHeaders({ id: delivery.id, event: delivery.event, attempt: delivery.attempts + 1 }, target.secret, delivery.payload, startedAt),
      timeoutMs: this.timeoutMs,
    });
    return runDeliveryCommand(delivery, { type: 'attempt', at: this.clock.now(), startedAt, outcome, policy: this.policy });
  }

  save(updates: readonly DeliveryUpdate[]): Promise<void> {
    if (updates.length === 0) return Promise.resolve();
    return this.uow.transaction((repos) => repos.webhookDeliveries.saveAttempts(updates));
  }

  /** When the next claim could find something (a retry falling due, a lease running out). */
  nextWakeUp(): Promise<Date | null> {
    const now = this.clock.now();
    return this.uow.transaction((repos) => repos.webhookDeliveries.nextWakeUp(now));
  }
}
