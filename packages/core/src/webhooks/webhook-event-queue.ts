import type { DomainEvent } from '../shared/domain-event.js';

/**
 * The events of the outbox not yet fanned out into deliveries. `take` removes them inside the
 * caller's transaction: if that transaction rolls back (or its process dies), they stay queued,
 * so an event committed with its change is never lost on the way to its deliveries.
 */
export interface WebhookEventQueue {
  /** Up to `limit` queued events, oldest first; concurrent transactions never take the same event. */
  take(limit: number): Promise<DomainEvent[]>;
}
export const WebhookEventQueue = Symbol.for('carteiro.WebhookEventQueue');
