import { describeTicketRepositoriesContract } from './testing/ticket-repositories.contract.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';

describeTicketRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
});
