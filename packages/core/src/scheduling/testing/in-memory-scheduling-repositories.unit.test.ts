import { describeSchedulingRepositoriesContract } from './scheduling-repositories.contract.js';
import { InMemoryUnitOfWork } from '../../testing/in-memory-unit-of-work.js';

describeSchedulingRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
});
