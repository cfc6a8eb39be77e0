import type { BackgroundService, Job, JobHandler } from './job-handler.js';
import type { Logger } from '../tokens.js';

/** How a queue of per-item jobs is polled: how many jobs a fetch takes and how often it looks. */
export interface PerJobOptions {
  queue: string;
  batchSize: number;
  /** Unset: every second (`runWorker`'s default). */
  pollingIntervalSeconds?: number;
}

/**
 * A queue whose jobs each name one item (a search, an import, a send): `run` handles one job's
 * data at a time, in the order of the batch. A throw fails the batch, which pg-boss retries.
 */
export function perJob<T>(options: PerJobOptions, run: (data: T) => unknown): JobHandler<T> {
  return {
    ...options,
    async handle(jobs: Job<T>[]): Promise<void> {
      for (const job of jobs) await run(job.data);
    },
  };
}

/** A periodic queue (one pg-boss schedule for all workers): `run` does the round; the jobs carry nothing. */
export function cronJob(queue: string, cron: string, run: () => Promise<unknown>): JobHandler {
  return {
    queue,
    cron,
    async handle(): Promise<void> {
      await run();
    },
  };
}

/**
 * A sweep at worker start, and once more when `againAfterMs` is given (the lease of a worker
 * that died just before: its leftovers are only free then), so that a restarted worker resumes
 * its work at once, not at the next minute sweep. A failed sweep is logged, never thrown.
 */
export function startupSweep(options: { name: string; sweep: () => Promise<unknown>; logger: Logger; failure: string; againAfterMs?: number }): BackgroundService {
  const { name, sweep, logger, failure, againAfterMs } = options;
  let timer: NodeJS.Timeout | null = null;
  const run = () => void sweep().catch((error: unknown) => logger.error({ err: error }, failure));
  return {
    name,
    async start() {
      run();
      if (againAfterMs === undefined) return;
      timer = setTimeout(run, againAfterMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearTimeout(timer);
    },
  };
}
