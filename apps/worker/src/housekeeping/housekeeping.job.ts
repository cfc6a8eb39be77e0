import { Clock, RateLimiter, RATE_LIMIT_WINDOW_MS, type QueueDefinition } from '@carteiro/core';
import { Db, ensureTimePartitions, type Database } from '@carteiro/postgres';
import { inject, injectable, multiInject, optional } from 'inversify';
import type { Kysely } from 'kysely';
import type { Job, JobHandler } from '../jobs/job-handler.js';

/** The worker's own clean-up queue (scheduled every minute; one run at a time). */
export const HOUSEKEEPING_QUEUE = 'housekeeping';
export const housekeepingQueueDefinitions: readonly QueueDefinition[] = [{ name: HOUSEKEEPING_QUEUE, policy: 'singleton', retryLimit: 2 }];

/** A clean-up step of another feature (expired idempotency records, old health history, …). */
export type Housekeeper = (now: Date) => Promise<number>;
export const Housekeeper = Symbol.for('carteiro.worker.Housekeeper');

/**
 * Every minute: creates the day partitions of the coming week (the outbox, the delivery log and the
 * simulator's outbox: `ensureTimePartitions`; the features' retention steps drop the old ones),
 * drops rate-limit windows that ended and runs the features' clean-up steps.
 */
@injectable()
export class HousekeepingJob implements JobHandler {
  readonly queue = HOUSEKEEPING_QUEUE;
  readonly cron = '* * * * *';
  lastRun: { at: Date; removed: number } | null = null;

  constructor(
    @inject(RateLimiter) private readonly limiter: RateLimiter,
    @inject(Clock) private readonly clock: Clock,
    @inject(Db) private readonly db: Kysely<Database>,
    @multiInject(Housekeeper) @optional() private readonly housekeepers: Housekeeper[] = [],
  ) {}

  async handle(_jobs: Job<Record<string, unknown>>[]): Promise<void> {
    const now = this.clock.now();
    await ensureTimePartitions(this.db, now);
    let removed = await this.limiter.purge(new Date(now.getTime() - RATE_LIMIT_WINDOW_MS));
    for (const housekeeper of this.housekeepers ?? []) removed += await housekeeper(now);
    this.lastRun = { at: now, removed };
  }
}
