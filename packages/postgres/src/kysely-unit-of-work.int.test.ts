import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TransactionConflict, type JobScheduler } from '@carteiro/core';
import { sql } from 'kysely';
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
