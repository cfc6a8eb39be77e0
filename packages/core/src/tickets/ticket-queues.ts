import type { QueueDefinition } from '../shared/job-scheduler.js';

/** The tickets area's queues. */
export const TicketQueues = {
  /** One job per snooze, started at its `snoozedUntil`: `{ companyId, ticketId }` (a later snooze makes it a no-op). */
  wakeSnoozed: 'tickets.wake-snoozed',
  /** Every minute: wakes whatever is due and was missed (a job lost with its queue, a snooze written by another path). */
  wakeSweep: 'tickets.wake-sweep',
} as const;

/** Their definitions, bound by the modules that enqueue into or consume them. */
export const ticketQueueDefinitions: readonly QueueDefinition[] = [
  { name: TicketQueues.wakeSnoozed, retryLimit: 5, retryDelay: 5 },
  { name: TicketQueues.wakeSweep, policy: 'singleton' },
];
