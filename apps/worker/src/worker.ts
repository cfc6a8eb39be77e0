import type { Container } from 'inversify';
import type PgBoss from 'pg-boss';
import { ensureDeclaredQueues } from '@carteiro/pgboss';
import { BackgroundService, JobHandler } from './jobs/job-handler.js';

export interface RunningWorker {
  /** Stops taking jobs, lets in-flight ones finish (or releases them), then stops the loops. */
  stop(): Promise<void>;
}

/** Subscribes every job handler to its queue, schedules the cron ones and starts the background loops. */
export async function runWorker(container: Container, boss: PgBoss): Promise<RunningWorker> {
  await ensureDeclaredQueues(boss, container);
  const handlers = container.getAll<JobHandler>(JobHandler);
  for (const handler of handlers) {
    await boss.work(
      handler.queue,
      { batchSize: handler.batchSize ?? 1, pollingIntervalSeconds: handler.pollingIntervalSeconds ?? 1 },
      async (jobs) => handler.handle(jobs.map((j) => ({ id: j.id, data: j.data as Record<string, unknown> }))),
    );
    if (handler.cron) await boss.schedule(handler.queue, handler.cron);
  }
  const services = container.getAll<BackgroundService>(BackgroundService);
  for (const service of services) await service.start();
  return {
    async stop() {
      for (const handler of handlers) await boss.offWork(handler.queue);
      await Promise.all(services.map((s) => s.stop()));
    },
  };
}
