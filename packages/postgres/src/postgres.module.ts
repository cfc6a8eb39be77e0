import { Repositories, RateLimiter, UnitOfWork } from '@carteiro/core';
import { ContainerModule } from 'inversify';
import type { Kysely } from 'kysely';
import { KyselyRateLimiter } from './kysely-rate-limiter.js';
import { KyselyUnitOfWork, kyselyRepositories, noJobScheduler, type JobSchedulerFactory } from './kysely-unit-of-work.js';
import type { Database } from './schema/database.js';

/** The Kysely instance of the process. */
export const Db = Symbol.for('carteiro.Db');

/** Persistence on PostgreSQL: the unit of work, the repositories outside transactions, the rate limiter. */
export function postgresModule(db: Kysely<Database>, jobs: JobSchedulerFactory = noJobScheduler): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Db).toConstantValue(db);
    bind<UnitOfWork>(UnitOfWork).toConstantValue(new KyselyUnitOfWork(db, jobs));
    bind<Repositories>(Repositories).toConstantValue(kyselyRepositories(db, jobs));
    bind<RateLimiter>(RateLimiter).toConstantValue(new KyselyRateLimiter(db));
  });
}
