import type { QueueDefinition } from '../shared/job-scheduler.js';

/** Queues of the contacts area: the API enqueues imports, the worker runs them. */
export const ContactQueues = {
  /** `{ importId }`: writes an import's batches in turn from the last committed one. */
  import: 'contact-import',
} as const;

/** A retried or duplicated import job resumes after the last committed batch, so retries are safe. */
export const contactQueueDefinitions: readonly QueueDefinition[] = [{ name: ContactQueues.import, policy: 'short', retryLimit: 5, retryDelay: 5 }];

/** How long a worker holds an import between batches before another may resume it. */
export const DEFAULT_IMPORT_LEASE_MS = 30_000;
