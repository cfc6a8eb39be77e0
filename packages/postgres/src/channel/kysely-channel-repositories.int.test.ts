import { afterAll } from '@jest/globals';
import { describeChannelRepositoriesContract } from '@carteiro/core/testing';
import { KyselyUnitOfWork, kyselyRepositories } from '../kysely-unit-of-work.js';
import { KyselyChannelSimulatorStore } from './kysely-channel-simulator-store.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';

let database: TestDatabase | undefined;
afterAll(async () => database?.destroy());

describeChannelRepositoriesContract('kysely', async () => {
  database ??= await createTestDatabase();
  return {
    uow: new KyselyUnitOfWork(database.db),
    repos: kyselyRepositories(database.db),
    simulatorStore: new KyselyChannelSimulatorStore(database.db),
  };
});
