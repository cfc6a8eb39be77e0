import { ChannelQueues, CheckChannelHealth } from '@carteiro/core';
import { inject, injectable } from 'inversify';
import type { Job, JobHandler } from '../jobs/job-handler.js';
import { Logger } from '../tokens.js';

/**
 * The health check a connection enqueues (in the transaction that records `connected`): a number
 * just connected shows a checked health within a polling interval instead of `unknown` until the
 * minute's check (docs/channel.md). A failed check is retried by the queue's policy.
 */
@injectable()
export class ChannelHealthAtConnectionJob implements JobHandler<{ setorId?: unknown; instanceId?: unknown }> {
  readonly queue = ChannelQueues.healthAtConnection;
  readonly batchSize = 10;
  readonly pollingIntervalSeconds = 0.5;

  constructor(
    @inject(CheckChannelHealth) private readonly check: CheckChannelHealth,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  async handle(jobs: Job<{ setorId?: unknown; instanceId?: unknown }>[]): Promise<void> {
    for (const job of jobs) {
      const { setorId, instanceId } = job.data;
      if (typeof setorId !== 'string' || typeof instanceId !== 'string') continue;
      const health = await this.check.checkAtConnection({ setorId, instanceId });
      this.logger.debug({ setorId, instanceId, state: health?.state ?? null }, 'channel health checked at connection');
    }
  }
}
