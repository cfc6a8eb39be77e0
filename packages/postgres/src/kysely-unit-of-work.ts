import { TransactionConflict, type JobScheduler, type Repositories, type UnitOfWork } from '@carteiro/core';
import { CompiledQuery, type Kysely } from 'kysely';
import { postgresAreas } from './areas.js';
import type { Database } from './shared/database.js';
import { KyselyEventOutbox } from './shared/kysely-event-outbox.js';

/** Runs raw SQL on a Kysely connection or transaction (how the job queue joins our transactions). */
export type SqlExecutor = (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;

/** Builds the job scheduler that writes through the given executor. */
export type JobSchedulerFactory = (executor: SqlExecutor) => JobScheduler;

export function sqlExecutor(db: Kysely<Database>): SqlExecutor {
  return async (text, values) => {
    const result = await db.executeQuery(CompiledQuery.raw(text, values));
    return { rows: result.rows as unknown[] };
  };
}

/** A scheduler for processes or tests without a queue: enqueuing is a programming error there. */
export const noJobScheduler: JobSchedulerFactory = () => ({
  enqueue: async (queue) => {
    throw new Error(`No job queue is configured (tried to enqueue on ${queue})`);
  },
});

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The repositories of every area of {@link postgresAreas}, by name. */
export type PostgresAreaRepositories = UnionToIntersection<ReturnType<(typeof postgresAreas)[number]['repositories']>>;

/** Every area's Kysely repositories over one connection or transaction, with the kernel's outbox and job queue. */
export function kyselyRepositories(db: Kysely<Database>, jobs: JobSchedulerFactory = noJobScheduler): Repositories<PostgresAreaRepositories> {
  const areas = postgresAreas.map((area) => area.repositories(db));
  return Object.assign({ events: new KyselyEventOutbox(db), jobs: jobs(sqlExecutor(db)) }, ...areas) as Repositories<PostgresAreaRepositories>;
}

/** Transactions over every area: the repositories handed to `work` write in one PostgreSQL transaction. */
export class KyselyUnitOfWork implements UnitOfWork<PostgresAreaRepositories> {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: JobSchedulerFactory = noJobScheduler,
  ) {}

  async transaction<T>(work: (repos: Repositories<PostgresAreaRepositories>) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      let begun = false;
      try {
        return await this.db.transaction().execute((trx) => {
          begun = true;
          return work(kyselyRepositories(trx, this.jobs));
        });
      } catch (error) {
        // A pooled connection the server had closed (a failover, a restart, every connection cut at once) fails at
        // BEGIN, before any work ran: nothing happened, so the transaction begins again on another connection (the
        // pool drops the dead one). Work that had begun is never run again here.
        if (!begun && attempt < BEGIN_ATTEMPTS && isConnectionLoss(error)) continue;
        // deadlock_detected, serialization_failure: PostgreSQL rolled this transaction back to let the others go on.
        const code = (error as { code?: unknown } | null)?.code;
        throw code === '40P01' || code === '40001' ? new TransactionConflict(error) : error;
      }
    }
  }
}

/** How many pooled connections a transaction tries before a connection loss at BEGIN is the caller's error. */
const BEGIN_ATTEMPTS = 5;

/** A connection the server closed or the client found closed (SQLSTATE class 08, admin shutdown, pg's own messages). */
function isConnectionLoss(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')) return true;
  return typeof message === 'string' && /not queryable|Connection terminated|ECONNRESET|EPIPE/i.test(message);
}

/** The unit of work over every PostgreSQL area, as the composition roots bind it to `UnitOfWork`. */
export type ServiceUnitOfWork = UnitOfWork<PostgresAreaRepositories>;
/** The repositories of every PostgreSQL area outside a transaction, as the roots bind them to `Repositories`. */
export type ServiceRepositories = Repositories<PostgresAreaRepositories>;
