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

/**
 * How one queue behaves, declared by the area that owns it (as data) and created by every process
 * that enqueues into it or consumes it.
 */
export interface QueueDefinition {
  name: string;
  /**
   * `standard`: any number of jobs; `singleton`: at most one job queued or active per singleton key;
   * `stately`: at most one queued and one active per key (a new wake-up waits beside the running job);
   * `short`: at most one queued per key.
   */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  /** Retries after a failed attempt (a job whose worker died counts as failed once it expires). */
  retryLimit?: number;
  /** Seconds between retries. */
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
}
