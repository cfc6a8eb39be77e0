import type { QueueDefinition } from '../shared/job-scheduler.js';

/** Queues of the leads area: the API enqueues searches, the worker runs them. */
export const LeadQueues = {
  /** `{ searchId }`: reads the source from the search's last committed page. */
  search: 'lead-search',
} as const;

/**
 * A job whose worker died expires after a minute and is retried; the retry resumes from the
 * last committed page, so retries never store or charge a lead twice.
 */
export const leadQueueDefinitions: readonly QueueDefinition[] = [{ name: LeadQueues.search, policy: 'short', retryLimit: 5, retryDelay: 2, expireInSeconds: 60 }];
