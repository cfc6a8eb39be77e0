import { describeContactRepositoriesContract } from './contact-repositories.contract.js';
import { InMemoryUnitOfWork } from '../../testing/in-memory-unit-of-work.js';

describeContactRepositoriesContract(
  'in-memory',
  async () => {
    const uow = new InMemoryUnitOfWork();
    return { uow, repos: uow.repos };
  },
  { bulk: { size: 2_000 } },
);
