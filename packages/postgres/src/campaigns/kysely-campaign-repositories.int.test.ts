import { afterAll } from '@jest/globals';
import { describeCampaignRepositoriesContract } from '@carteiro/core/testing';
import { KyselyUnitOfWork, kyselyRepositories } from '../kysely-unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';

let database: TestDatabase | undefined;
afterAll(async () => database?.destroy());

describeCampaignRepositoriesContract('kysely', async () => {
  database ??= await createTestDatabase({ poolSize: 8 });
  return { uow: new KyselyUnitOfWork(database.db), repos: kyselyRepositories(database.db) };
});
