import { describeLeadAndBillingRepositoriesContract } from './testing/lead-billing-repositories.contract.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';

describeLeadAndBillingRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
});
