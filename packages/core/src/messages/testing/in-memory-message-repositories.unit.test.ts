import { describeMessageRepositoriesContract } from './message-repositories.contract.js';
import { InMemoryUnitOfWork } from '../../testing/in-memory-unit-of-work.js';

describeMessageRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
});
