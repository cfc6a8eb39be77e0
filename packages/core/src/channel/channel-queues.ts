import type { QueueDefinition } from '../shared/job-scheduler.js';

/** Queues of the channel area. */
export const ChannelQueues = {
  /** Periodic (every minute) and on connection: checks the health of connected numbers. */
  health: 'channel-health',
  /** `{ setorId, instanceId }`: one check of a number that just connected, so its health is known at once (docs/channel.md). */
  healthAtConnection: 'channel-health-at-connection',
} as const;

/** How the channel queues behave. */
export const channelQueueDefinitions: readonly QueueDefinition[] = [
  { name: ChannelQueues.health, policy: 'singleton', retryLimit: 0 },
  // Enqueued by the transaction that records a connection (API status reads and QR requests, the worker's checks):
  // every process that can connect a number declares it.
  { name: ChannelQueues.healthAtConnection, policy: 'standard', retryLimit: 2, retryDelay: 5 },
];
