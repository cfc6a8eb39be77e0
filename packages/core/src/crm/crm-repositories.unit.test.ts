import { describeCrmRepositoriesContract } from '../testing/index.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';

describeCrmRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
});
