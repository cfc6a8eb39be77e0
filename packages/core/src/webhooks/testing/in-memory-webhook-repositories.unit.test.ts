import { describeWebhookRepositoriesContract } from './webhook-repositories.contract.js';
import { InMemoryUnitOfWork } from '../../testing/in-memory-unit-of-work.js';

describeWebhookRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
});
