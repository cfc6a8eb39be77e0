import { Clock, RateLimiter, RATE_LIMIT_WINDOW_MS, type QueueDefinition } from '@carteiro/core';
import { Db, ensureTimePartitions, purgeMessagesOfFinishedCampaigns, type Database } from '@carteiro/postgres';
import { AppConfig, type Config } from '@carteiro/system';
import { inject, injectable, multiInject, optional } from 'inversify';
import type { Kysely } from 'kysely';
import type { Job, JobHandler } from '../jobs/job-handler.js';

/** The worker's own clean-up queue (scheduled every minute; one run at a time). */
export const HOUSEKEEPING_QUEUE = 'housekeeping';
export const housekeepingQueueDefinitions: readonly QueueDefinition[] = [{ name: HOUSEKEEPING_QUEUE, policy: 'singleton', retryLimit: 2 }];

/** A clean-up step of another feature (expired idempotency records, old health history, …). */
export type Housekeeper = (now: Date) => Promise<number>;
export const Housekeeper = Symbol.for('carteiro.worker.Housekeeper');

/** What housekeeping keeps; bound by a test to change it, otherwise taken from the shared Config. */
export interface HousekeepingSettings {
  /** Days a finished campaign keeps its recipients (`CAMPAIGN_MESSAGE_RETENTION_DAYS`); null: forever (the default). */
  campaignMessageRetentionDays: number | null;
}
export const HousekeepingSettings = Symbol.for('carteiro.worker.HousekeepingSettings');

/**
 * Every minute: creates the day partitions of the coming week (the outbox, the delivery log and the
 * simulator's outbox: `ensureTimePartitions`; the features' retention steps drop the old ones),
 * deletes the recipients of campaigns finished longer ago than `CAMPAIGN_MESSAGE_RETENTION_DAYS` (when
 * set), drops rate-limit windows that ended and runs the features' clean-up steps.
 */
@injectable()
export class HousekeepingJob implements JobHandler {
  readonly queue = HOUSEKEEPING_QUEUE;
  readonly cron = '* * * * *';
  lastRun: { at: Date; removed: number } | null = null;
  private readonly settings: HousekeepingSettings;

  constructor(
    @inject(RateLimiter) private readonly limiter: RateLimiter,
    @inject(Clock) private readonly clock: Clock,
    @inject(Db) private readonly db: Kysely<Database>,
    @inject(AppConfig) config: Config,
    @multiInject(Housekeeper) @optional() private readonly housekeepers: Housekeeper[] = [],
    @inject(HousekeepingSettings) @optional() settings?: HousekeepingSettings,
  ) {
    this.settings = settings ?? { campaignMessageRetentionDays: config.campaignMessageRetentionDays };
  }

  async handle(_jobs: Job<Record<string, unknown>>[]): Promise<void> {
    const now = this.clock.now();
    await ensureTimePartitions(this.db, now);
    let removed = await this.limiter.purge(new Date(now.getTime() - RATE_LIMIT_WINDOW_MS));
    const retentionDays = this.settings.campaignMessageRetentionDays;
    if (retentionDays !== null) removed += await purgeMessagesOfFinishedCampaigns(this.db, new Date(now.getTime() - retentionDays * 86_400_000), now);
    for (const housekeeper of this.housekeepers ?? []) removed += await housekeeper(now);
    this.lastRun = { at: now, removed };
  }
}
