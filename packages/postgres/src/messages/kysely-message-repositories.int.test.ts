import { afterAll } from '@jest/globals';
import { describeMessageRepositoriesContract } from '@carteiro/core/testing';
import { KyselyUnitOfWork, kyselyRepositories } from '../kysely-unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';

let database: TestDatabase | undefined;
afterAll(async () => database?.destroy());

describeMessageRepositoriesContract('kysely', async () => {
  database ??= await createTestDatabase();
  return { uow: new KyselyUnitOfWork(database.db), repos: kyselyRepositories(database.db) };
});
