import {
  ChannelGateway,
  ChannelSimulatorStore,
  Clock,
  IdGenerator,
  Random,
  Repositories,
} from '@carteiro/core';
import { ContainerModule } from 'inversify';
import { createChannelGateway, type ChannelsConfig } from './create-channel-gateway.js';

/**
 * Binds `ChannelGateway` (the router) and `ChannelSimulatorStore`. The store is given by the
 * composition root (PostgreSQL in the apps); the conversation windows come from `Repositories`.
 */
export function channelsModule(config: ChannelsConfig, simulatorStore: ChannelSimulatorStore): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<ChannelSimulatorStore>(ChannelSimulatorStore).toConstantValue(simulatorStore);
    bind<ChannelGateway>(ChannelGateway)
      .toResolvedValue(
        (clock: Clock, ids: IdGenerator, random: Random, repos: Repositories) =>
          createChannelGateway(config, { clock, ids, random, simulatorStore, conversationWindows: repos.conversationWindows }),
        [Clock, IdGenerator, Random, Repositories],
      )
      .inSingletonScope();
  });
}
