import { describeContactAreaContract } from './contact-area.contract.js';
import { describeTagRepositoriesContract } from '../../tags/testing/index.js';
import { InMemoryUnitOfWork } from '../../testing/in-memory-unit-of-work.js';

const setup = async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos };
};
describeContactAreaContract('in-memory', setup);
describeTagRepositoriesContract('in-memory', setup);
