import { afterAll } from '@jest/globals';
import { describeTicketRepositoriesContract } from '@carteiro/core/testing';
import { KyselyUnitOfWork, kyselyRepositories } from '../kysely-unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';

let database: TestDatabase | undefined;
afterAll(async () => database?.destroy());

describeTicketRepositoriesContract('kysely', async () => {
  database ??= await createTestDatabase();
  return { uow: new KyselyUnitOfWork(database.db), repos: kyselyRepositories(database.db) };
});
