/** One job as a handler receives it. */
export interface Job<T> {
  id: string;
  data: T;
}

/**
 * Consumes one pg-boss queue. Handlers must be idempotent: a job whose worker died is
 * delivered again. Throwing fails the batch, which pg-boss retries per the queue's policy.
 */
export interface JobHandler<T = Record<string, unknown>> {
  queue: string;
  /** A cron expression: the worker schedules the queue (pg-boss keeps one schedule for all workers). */
  cron?: string;
  batchSize?: number;
  /** At least 0.5 (pg-boss's floor). */
  pollingIntervalSeconds?: number;
  handle(jobs: Job<T>[]): Promise<void>;
}
export const JobHandler = Symbol.for('carteiro.worker.JobHandler');

/**
 * A loop that runs for the life of the worker beside the queues (for work that cannot wait for
 * pg-boss's polling, woken by LISTEN/NOTIFY). `stop` must finish or release in-flight work.
 */
export interface BackgroundService {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}
export const BackgroundService = Symbol.for('carteiro.worker.BackgroundService');
