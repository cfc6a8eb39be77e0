import { TicketSendQueues, type DeliverTicketSend, type ExpireTicketRating, type SweepTicketSends } from '@carteiro/core';
import type { BackgroundService, Job, JobHandler } from '../jobs/job-handler.js';
import type { Logger } from '../tokens.js';

/**
 * Sends the automatic messages of tickets (closing message, rating request, rating thanks), each
 * exactly once: `DeliverTicketSend` claims the send row before the channel call and settles it once
 * after, so a repeated or retried job (a worker killed between closing and sending, or after the
 * send and before its record) neither loses nor repeats the message. An error (the database away)
 * fails the job and pg-boss retries it; a killed worker's job expires and is retried.
 */
export class TicketClosingJob implements JobHandler<{ sendId: string }> {
  readonly queue = TicketSendQueues.send;
  readonly batchSize = 5;
  readonly pollingIntervalSeconds = 0.5;
  constructor(private readonly deliver: DeliverTicketSend) {}
  async handle(jobs: Job<{ sendId: string }>[]): Promise<void> {
    for (const job of jobs) await this.deliver.execute(job.data.sendId);
  }
}

/** 24 hours after a rating request: an unanswered one becomes `expired` (one job per request, no polling). */
export class RatingExpiryJob implements JobHandler<{ companyId: string; ticketId: string }> {
  readonly queue = TicketSendQueues.ratingExpiry;
  readonly batchSize = 20;
  constructor(private readonly expire: ExpireTicketRating) {}
  async handle(jobs: Job<{ companyId: string; ticketId: string }>[]): Promise<void> {
    for (const job of jobs) await this.expire.execute(job.data.companyId, job.data.ticketId);
  }
}

/**
 * At worker start, and once more after a lease: enqueues again the sends a killed worker left
 * queued or claimed (the minute housekeeping does it afterwards), so a restart finishes them at once.
 */
export class TicketSendStartupSweep implements BackgroundService {
  readonly name = 'ticket-send-startup-sweep';
  private timer: NodeJS.Timeout | null = null;
  constructor(
    private readonly sweep: SweepTicketSends,
    private readonly logger: Logger,
    private readonly leaseMs: number,
  ) {}
  async start(): Promise<void> {
    const run = () => void this.sweep.execute().catch((error: unknown) => this.logger.error({ err: error }, 'ticket send sweep failed'));
    run();
    this.timer = setTimeout(run, this.leaseMs + 500);
    this.timer.unref();
  }
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
  }
}
