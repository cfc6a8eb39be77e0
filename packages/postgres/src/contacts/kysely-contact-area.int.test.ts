import { afterAll } from '@jest/globals';
import { describeContactAreaContract, describeTagRepositoriesContract } from '@carteiro/core/testing';
import { KyselyUnitOfWork, kyselyRepositories } from '../kysely-unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';

let database: TestDatabase | undefined;
afterAll(async () => database?.destroy());

const setup = async () => {
  database ??= await createTestDatabase();
  return { uow: new KyselyUnitOfWork(database.db), repos: kyselyRepositories(database.db) };
};
describeContactAreaContract('kysely', setup);
describeTagRepositoriesContract('kysely', setup);
