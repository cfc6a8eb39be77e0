import { describeTicketReplyRepositoriesContract } from './testing/ticket-reply-repositories.contract.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';

describeTicketReplyRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
});
