import { describeWebhookRepositoriesContract } from './contracts/index.js';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work.js';

describeWebhookRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
});
