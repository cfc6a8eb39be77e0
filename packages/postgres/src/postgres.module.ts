import { Repositories, RateLimiter, RequestGate, UnitOfWork } from '@carteiro/core';
import { ContainerModule } from 'inversify';
import type { Kysely } from 'kysely';
import { KyselyRateLimiter } from './foundation/kysely-rate-limiter.js';
import { KyselyRequestGate } from './foundation/kysely-request-gate.js';
import { KyselyUnitOfWork, kyselyRepositories, noJobScheduler, type JobSchedulerFactory } from './kysely-unit-of-work.js';
import type { Database } from './shared/database.js';

/** The Kysely instance of the process. */
export const Db = Symbol.for('carteiro.Db');

/** Persistence on PostgreSQL: the unit of work, the repositories outside transactions, the rate limiter and request gate. */
export function postgresModule(db: Kysely<Database>, jobs: JobSchedulerFactory = noJobScheduler): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(Db).toConstantValue(db);
    bind(UnitOfWork).toConstantValue(new KyselyUnitOfWork(db, jobs));
    bind(Repositories).toConstantValue(kyselyRepositories(db, jobs));
    bind<RateLimiter>(RateLimiter).toConstantValue(new KyselyRateLimiter(db));
    bind<RequestGate>(RequestGate).toConstantValue(new KyselyRequestGate(db));
  });
}
