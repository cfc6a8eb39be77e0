import { describeContractRepositoriesContract } from '../testing/index.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';

describeContractRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
});
