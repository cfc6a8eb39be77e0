import { TicketQueues, type WakeSnoozedTickets } from '@carteiro/core';
import type { Job, JobHandler } from '../jobs/job-handler.js';

/**
 * Wakes one snoozed ticket at its `snoozedUntil` (the job is queued with the snooze, to start then;
 * pg-boss's polling keeps it within seconds). A ticket snoozed again or moved meanwhile is left alone.
 */
export class WakeSnoozedTicketJob implements JobHandler<{ companyId: string; ticketId: string }> {
  readonly queue = TicketQueues.wakeSnoozed;
  readonly batchSize = 20;
  readonly pollingIntervalSeconds = 1;
  constructor(private readonly wake: WakeSnoozedTickets) {}
  async handle(jobs: Job<{ companyId: string; ticketId: string }>[]): Promise<void> {
    for (const job of jobs) await this.wake.wake(job.data.companyId, job.data.ticketId);
  }
}

/** Every minute: wakes any due snoozed ticket whose job was lost (one query over the snoozed index, not a poll per ticket). */
export class WakeSnoozedSweepJob implements JobHandler {
  readonly queue = TicketQueues.wakeSweep;
  readonly cron = '* * * * *';
  constructor(private readonly wake: WakeSnoozedTickets) {}
  async handle(): Promise<void> {
    await this.wake.sweep();
  }
}
