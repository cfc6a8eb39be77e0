import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TransactionConflict, type JobScheduler } from '@carteiro/core';
import { sql } from 'kysely';
import { createDb } from './db.js';
import { KyselyUnitOfWork, type SqlExecutor } from './kysely-unit-of-work.js';
import { createTestDatabase, type TestDatabase } from './testing/index.js';

describe('KyselyUnitOfWork: conflicts between transactions', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    await sql`CREATE TABLE uow_probe (k int PRIMARY KEY, v int NOT NULL)`.execute(database.db);
    await sql`INSERT INTO uow_probe VALUES (1, 0), (2, 0)`.execute(database.db);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('given two transactions that lock two rows in opposite orders, then the deadlock victim rejects with TransactionConflict and the other commits', async () => {
    // The job scheduler's factory receives each transaction's SQL executor: the test runs its statements through it.
    const uow = new KyselyUnitOfWork(database.db, (execute) => ({ execute }) as unknown as JobScheduler);
    const executorOf = (repos: { jobs: JobScheduler }) => (repos.jobs as unknown as { execute: SqlExecutor }).execute;
    let holding = 0;
    let bothHold: () => void = () => undefined;
    const together = new Promise<void>((resolve) => (bothHold = resolve));
    const crossing = (first: number, second: number) =>
      uow.transaction(async (repos) => {
        const execute = executorOf(repos);
        await execute('UPDATE uow_probe SET v = v + 1 WHERE k = $1', [first]);
        holding += 1;
        if (holding === 2) bothHold();
        await together;
        await execute('UPDATE uow_probe SET v = v + 1 WHERE k = $1', [second]);
        return first;
      });
    const outcomes = await Promise.allSettled([crossing(1, 2), crossing(2, 1)]);
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.reason).toBeInstanceOf(TransactionConflict);
    expect(String((rejected[0]!.reason as TransactionConflict).message)).toMatch(/deadlock/);
    // The victim wrote nothing: the winner's two increments are all there is.
    const { rows } = await sql<{ total: number }>`SELECT sum(v)::int AS total FROM uow_probe`.execute(database.db);
    expect(rows).toEqual([{ total: 2 }]);
  });
});

describe('KyselyUnitOfWork: connections the server closed', () => {
  let database: TestDatabase;
  let pool: ReturnType<typeof createDb>;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createDb(database.url, { poolSize: 4, applicationName: 'carteiro-uow-cut' });
  });
  afterAll(async () => {
    await pool?.destroy();
    await database?.destroy();
  });

  it('given every idle pooled connection closed by the server, then a transaction begins on a live one; work that began is not run again', async () => {
    const uow = new KyselyUnitOfWork(pool);
    // Four idle connections in the pool.
    await Promise.all([1, 2, 3, 4].map(() => uow.transaction(async (repos) => (await repos.companies.findById('00000000-0000-4000-8000-000000000000')) ?? 0)));
    const { rows } = await sql<{ n: number }>`
      SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'carteiro-uow-cut'`.execute(database.db);
    expect(rows[0]!.n).toBeGreaterThan(0);
    let runs = 0;
    await expect(
      uow.transaction(async (repos) => {
        runs += 1;
        return (await repos.companies.findById('00000000-0000-4000-8000-000000000000')) ?? 'none';
      }),
    ).resolves.toBe('none');
    expect(runs).toBe(1);
  });
});
