import { ChannelQueues, CheckChannelHealth } from '@carteiro/core';
import { inject, injectable } from 'inversify';
import type { Job, JobHandler } from '../jobs/job-handler.js';
import { Logger } from '../tokens.js';

/** The queue of the periodic channel health check. */
export const CHANNEL_HEALTH_QUEUE = ChannelQueues.health;

/**
 * Every minute (one pg-boss schedule for all workers, a singleton queue so checks never overlap):
 * probes every instance, reconciles its status and records health and history (docs/channel.md).
 */
@injectable()
export class ChannelHealthJob implements JobHandler {
  readonly queue = CHANNEL_HEALTH_QUEUE;
  readonly cron = '* * * * *';

  constructor(
    @inject(CheckChannelHealth) private readonly check: CheckChannelHealth,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  async handle(_jobs: Job<Record<string, unknown>>[]): Promise<void> {
    const summary = await this.check.execute();
    this.logger.debug({ summary }, 'channel health checked');
  }
}
