import { afterAll } from '@jest/globals';
import { describeContactRepositoriesContract } from '@carteiro/core/testing';
import { KyselyUnitOfWork, kyselyRepositories } from '../kysely-unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';

let database: TestDatabase | undefined;
afterAll(async () => database?.destroy());

describeContactRepositoriesContract(
  'kysely',
  async () => {
    database ??= await createTestDatabase();
    return { uow: new KyselyUnitOfWork(database.db), repos: kyselyRepositories(database.db) };
  },
  // One statement for 10,000 phones: ~50-100 ms on an idle machine. The budget is loose because the
  // shared test machine runs several suites at once; a per-row implementation (10,000 round trips)
  // takes several seconds and still fails it.
  { bulk: { size: 10_000, budgetMs: 1_500 } },
);
