import { TicketSendQueues, type DeliverTicketSend, type ExpireTicketRating, type SweepTicketSends } from '@carteiro/core';
import { perJob, startupSweep } from '../jobs/job-kinds.js';
import type { Logger } from '../tokens.js';

/**
 * Sends the automatic messages of tickets (closing message, rating request, rating thanks), each
 * exactly once: `DeliverTicketSend` claims the send row before the channel call and settles it once
 * after, so a repeated or retried job (a worker killed between closing and sending, or after the
 * send and before its record) neither loses nor repeats the message. An error (the database away)
 * fails the job and pg-boss retries it; a killed worker's job expires and is retried.
 */
export const ticketClosingJob = (deliver: DeliverTicketSend) =>
  perJob<{ sendId: string }>({ queue: TicketSendQueues.send, batchSize: 5, pollingIntervalSeconds: 0.5 }, (data) => deliver.execute(data.sendId));

/** 24 hours after a rating request: an unanswered one becomes `expired` (one job per request, no polling). */
export const ratingExpiryJob = (expire: ExpireTicketRating) =>
  perJob<{ companyId: string; ticketId: string }>({ queue: TicketSendQueues.ratingExpiry, batchSize: 20 }, (data) => expire.execute(data.companyId, data.ticketId));

/**
 * At worker start, and once more after a lease: enqueues again the sends a killed worker left
 * queued or claimed (the minute housekeeping does it afterwards), so a restart finishes them at once.
 */
export const ticketSendStartupSweep = (sweep: SweepTicketSends, logger: Logger, leaseMs: number) =>
  startupSweep({ name: 'ticket-send-startup-sweep', sweep: () => sweep.execute(), logger, failure: 'ticket send sweep failed', againAfterMs: leaseMs + 500 });
