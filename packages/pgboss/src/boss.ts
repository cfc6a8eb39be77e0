import type { QueueDefinition } from '@carteiro/core';
import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';

export interface BossOptions {
  /** Processes that only enqueue (the API) skip maintenance and cron monitoring. */
  worker: boolean;
  poolSize?: number;
}

/**
 * The application_name of a worker process's queue connections: one per process (a random suffix, as
 * pids repeat across containers), so that `pg_stat_activity` counts the live workers, idle ones too
 * (the campaign lanes share themselves out by that count).
 */
export const WORKER_QUEUE_APPLICATION = 'carteiro-worker-queue';
const workerQueueApplication = `${WORKER_QUEUE_APPLICATION}:${randomUUID().slice(0, 8)}`;

/** The schema pg-boss keeps its tables in, beside ours. */
export const BOSS_SCHEMA = 'pgboss';

export function createBoss(connectionString: string, options: BossOptions): PgBoss {
  const boss = new PgBoss({
    connectionString,
    schema: BOSS_SCHEMA,
    max: options.poolSize ?? (options.worker ? 5 : 2),
    application_name: options.worker ? workerQueueApplication : 'carteiro-api-queue',
    supervise: options.worker,
    schedule: options.worker,
    // Maintenance expires the jobs of workers that died (one process runs it per interval): every 20 s rather
    // than 2 min, so a killed worker's lane jobs stop blocking their lanes' next wake-ups within about half a minute.
    maintenanceIntervalSeconds: 20,
  });
  return boss;
}

/** Creates every queue that does not exist yet (idempotent; every process calls it at start). */
export async function ensureQueues(boss: PgBoss, queues: readonly QueueDefinition[]): Promise<void> {
  const existing = new Set((await boss.getQueues()).map((q) => q.name));
  for (const queue of queues) {
    if (existing.has(queue.name)) continue;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await boss.createQueue(queue.name, { ...queue });
        break;
      } catch (error) {
        // Another process created it between our read and our insert.
        if (await boss.getQueue(queue.name)) break;
        // Processes starting together can deadlock creating queues (each creates a partition of the
        // job table): PostgreSQL rolls one back, which tries again.
        if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }
}
