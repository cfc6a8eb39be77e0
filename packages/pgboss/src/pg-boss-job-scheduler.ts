import type { EnqueueOptions, JobScheduler } from '@carteiro/core';
import type PgBoss from 'pg-boss';

/** Runs SQL for pg-boss on a connection of ours, so that a job can be created inside our transaction. */
export type SqlExecutor = (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * The core's JobScheduler on pg-boss. Given an executor bound to a transaction, the job is
 * inserted in that transaction: it exists if and only if the change that asked for it commits.
 */
export class PgBossJobScheduler implements JobScheduler {
  constructor(
    private readonly boss: PgBoss,
    private readonly executor?: SqlExecutor,
  ) {}

  async enqueue(queue: string, data: Record<string, unknown>, options: EnqueueOptions = {}): Promise<string | null> {
    const sendOptions: PgBoss.SendOptions = {};
    if (options.startAfter) sendOptions.startAfter = options.startAfter;
    if (options.singletonKey) sendOptions.singletonKey = options.singletonKey;
    if (this.executor) {
      const executor = this.executor;
      sendOptions.db = { executeSql: (text, values) => executor(text, values) as Promise<{ rows: never[] }> };
    }
    return this.boss.send(queue, data, sendOptions);
  }
}
