import { describeCampaignRepositoriesContract } from './campaign-repositories.contract.js';
import { InMemoryUnitOfWork } from '../../testing/in-memory-unit-of-work.js';

describeCampaignRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
});
