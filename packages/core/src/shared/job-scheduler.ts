/** Options of one enqueued job. */
export interface EnqueueOptions {
  /** Not before this instant. */
  startAfter?: Date;
  /** At most one queued (not yet started) job per key and queue. */
  singletonKey?: string;
}

/**
 * Hands work to the worker processes through durable queues (pg-boss in production). Jobs
 * survive restarts; a job whose worker dies is retried, so every handler must be idempotent.
 */
export interface JobScheduler {
  /** Enqueues a job; returns its id, or null when a singleton job for the key is already queued. */
  enqueue(queue: string, data: Record<string, unknown>, options?: EnqueueOptions): Promise<string | null>;
}
export const JobScheduler = Symbol.for('carteiro.JobScheduler');
