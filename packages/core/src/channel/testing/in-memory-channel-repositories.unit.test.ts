import { describeChannelRepositoriesContract } from './channel-repositories.contract.js';
import { InMemoryChannelSimulatorStore } from './in-memory-channel-simulator-store.js';
import { InMemoryUnitOfWork } from '../../testing/in-memory-unit-of-work.js';

describeChannelRepositoriesContract('in-memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, repos: uow.repos, simulatorStore: new InMemoryChannelSimulatorStore(uow.store) };
});
