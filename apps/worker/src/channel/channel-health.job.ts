import { ChannelQueues, type CheckChannelHealth } from '@carteiro/core';
import { cronJob } from '../jobs/job-kinds.js';
import type { Logger } from '../tokens.js';

/** The queue of the periodic channel health check. */
export const CHANNEL_HEALTH_QUEUE = ChannelQueues.health;

/**
 * Every minute (one pg-boss schedule for all workers, a singleton queue so checks never overlap):
 * probes every instance, reconciles its status and records health and history (docs/channel.md).
 */
export const channelHealthJob = (check: CheckChannelHealth, logger: Logger) =>
  cronJob(CHANNEL_HEALTH_QUEUE, '* * * * *', async () => {
    const summary = await check.execute();
    logger.debug({ summary }, 'channel health checked');
  });
