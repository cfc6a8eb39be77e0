import { describeFoundationRepositoriesContract } from './foundation-repositories.contract.js';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work.js';

describeFoundationRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
});
