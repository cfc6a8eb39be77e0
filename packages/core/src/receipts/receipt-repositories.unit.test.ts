import { describeReceiptRepositoriesContract } from './testing/receipt-repositories.contract.js';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work.js';

describeReceiptRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
});
