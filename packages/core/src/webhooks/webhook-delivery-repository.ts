import type { Page, PageRequest } from '../shared/pagination.js';
import type { DeliveryAttempt, WebhookDelivery } from './webhook-delivery.js';

/** Where an attempt goes: the webhook's current URL and secret, or a callback URL (unsigned). */
export interface DeliveryTarget {
  url: string;
  /** null for `callback_url` deliveries, which have no shared secret. */
  secret: string | null;
  /** false when the webhook was deactivated after the delivery was created. */
  active: boolean;
}

/** A delivery held by one worker (its `lockedUntil` is set), with where to send it. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  target: DeliveryTarget;
}

/** A delivery with its attempts, oldest attempt first, for the delivery log. */
export interface DeliveryWithAttempts extends WebhookDelivery {
  attemptLog: DeliveryAttempt[];
}

/** The outcome of one attempt (or of an abandoned delivery, without attempt) to store. */
export interface DeliveryUpdate {
  delivery: WebhookDelivery;
  attempt: DeliveryAttempt | null;
}

/**
 * Deliveries and their attempts. Claims are leases: a worker that dies holding one loses it when
 * `lockedUntil` passes, and another worker makes the attempt again (with the same delivery id).
 */
export interface WebhookDeliveryRepository {
  insertMany(deliveries: readonly WebhookDelivery[]): Promise<void>;
  /**
   * Takes up to `limit` pending deliveries due at `now` that no live lease holds, oldest due
   * first, and leases them until `lockedUntil`. Concurrent callers never take the same one.
   */
  claimDue(now: Date, limit: number, lockedUntil: Date): Promise<ClaimedDelivery[]>;
  /** Stores attempt outcomes; an update of a delivery deleted meanwhile (webhook removed) is dropped. */
  saveAttempts(updates: readonly DeliveryUpdate[]): Promise<void>;
  /** Replaces a delivery's state (redelivery). */
  update(delivery: WebhookDelivery): Promise<void>;
  findInWebhook(companyId: string, webhookId: string, id: string): Promise<DeliveryWithAttempts | null>;
  /** Newest first. */
  listByWebhook(companyId: string, webhookId: string, page: PageRequest, status?: DeliveryStatusFilter): Promise<Page<DeliveryWithAttempts>>;
  /** Earliest `nextAttemptAt` of a pending delivery not leased at `now`, or of a lease's end; null when nothing is pending. */
  nextWakeUp(now: Date): Promise<Date | null>;
  /** Deletes finished (succeeded or failed) deliveries, with their attempts, completed before `before`; returns how many. */
  purgeFinishedBefore(before: Date): Promise<number>;
}
export type DeliveryStatusFilter = 'pending' | 'succeeded' | 'failed';
export const WebhookDeliveryRepository = Symbol.for('carteiro.WebhookDeliveryRepository');
