import { TicketSendQueues, type DeliverTicketSend, type ExpireTicketRating } from '@carteiro/core';
import type { Job, JobHandler } from '../jobs/job-handler.js';

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
