import type { QueueDefinition } from '../shared/job-scheduler.js';

/** Queues of the channel area. */
export const ChannelQueues = {
  /** Periodic (every minute) and on connection: checks the health of connected numbers. */
  health: 'channel-health',
} as const;

/** How the channel queues behave. */
export const channelQueueDefinitions: readonly QueueDefinition[] = [{ name: ChannelQueues.health, policy: 'singleton', retryLimit: 0 }];
