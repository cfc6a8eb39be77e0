import { JobScheduler } from '@carteiro/core';
import { ContainerModule } from 'inversify';
import type PgBoss from 'pg-boss';
import { PgBossJobScheduler, type SqlExecutor } from './pg-boss-job-scheduler.js';

/** The pg-boss instance of the process. */
export const Boss = Symbol.for('carteiro.Boss');

/** Builds per-transaction schedulers for the unit of work. */
export function jobSchedulerFactory(boss: PgBoss): (executor: SqlExecutor) => PgBossJobScheduler {
  return (executor) => new PgBossJobScheduler(boss, executor);
}

/** The job queue: JobScheduler outside transactions, and the boss itself for workers. */
export function pgBossModule(boss: PgBoss): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Boss).toConstantValue(boss);
    bind<JobScheduler>(JobScheduler).toConstantValue(new PgBossJobScheduler(boss));
  });
}
