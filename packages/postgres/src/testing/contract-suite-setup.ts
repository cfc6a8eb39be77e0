import { afterAll } from '@jest/globals';
import { KyselyUnitOfWork, kyselyRepositories } from '../kysely-unit-of-work.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/**
 * The `setup` of the core's contract suites on PostgreSQL: a test database of the test file's
 * own, created on first use and destroyed after the file's tests, shared by its cases.
 */
export function kyselyContractSetup(): () => Promise<{ uow: KyselyUnitOfWork; repos: ReturnType<typeof kyselyRepositories> }> {
  let database: TestDatabase | undefined;
  afterAll(async () => database?.destroy());
  return async () => {
    database ??= await createTestDatabase();
    return { uow: new KyselyUnitOfWork(database.db), repos: kyselyRepositories(database.db) };
  };
}
