import { CampaignQueues } from '@carteiro/core';
import type { QueueDefinition } from './boss.js';

/**
 * Every queue of the service. A feature adds its queues here so that every process creates
 * them at start (pg-boss 10 refuses to send to a queue that does not exist).
 */
export const Queues = {
  /** Periodic clean-up of expired rate-limit windows and idempotency records. */
  housekeeping: 'housekeeping',
} as const;

export const queueDefinitions: QueueDefinition[] = [
  { name: Queues.housekeeping, policy: 'singleton', retryLimit: 2 },
  // The API enqueues into the campaign queues and the worker consumes them: both processes create them.
  // Lanes and starts keep at most one queued job per box or campaign beside the running one.
  { name: CampaignQueues.prepare, policy: 'stately', retryLimit: 5, retryDelay: 5 },
  { name: CampaignQueues.start, policy: 'stately', retryLimit: 5, retryDelay: 5 },
  { name: CampaignQueues.lane, policy: 'stately', retryLimit: 2, retryDelay: 5 },
  { name: CampaignQueues.sweep, policy: 'singleton', retryLimit: 1 },
];

/** Registers more queues (features call this from their module, before processes start). */
export function registerQueues(...definitions: QueueDefinition[]): void {
  for (const definition of definitions) {
    if (!queueDefinitions.some((q) => q.name === definition.name)) queueDefinitions.push(definition);
  }
}
