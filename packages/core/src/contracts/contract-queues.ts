import type { QueueDefinition } from '../shared/job-scheduler.js';

/** Queues of the contracts area (both cron-scheduled by the worker). */
export const ContractQueues = {
  /** Every 10 minutes: asks the providers about contracts waiting for signatures (missed webhooks, expiry). */
  reconcile: 'contracts-reconcile',
  /** Every minute: compensates sends left `sending` for 5 minutes by a process that stopped. */
  sweep: 'contracts-sweep',
} as const;

/** How the contract queues behave: one run at a time, a failed run waits for the next tick. */
export const contractQueueDefinitions: readonly QueueDefinition[] = [
  { name: ContractQueues.reconcile, policy: 'singleton', retryLimit: 0 },
  { name: ContractQueues.sweep, policy: 'singleton', retryLimit: 0 },
];
