import { ChannelGateway, ChannelSimulatorStore, Clock, IdGenerator, Random, Repositories, type ChannelRepositories } from '@carteiro/core';
import { ContainerModule } from 'inversify';
import { createChannelGateway, type ChannelsConfig } from './create-channel-gateway.js';

/** The `ChannelsConfig` of the process; bound by the app (from its configuration). */
export const ChannelsSettings = Symbol.for('carteiro.ChannelsSettings');

/**
 * Binds `ChannelGateway` to the router over the simulator and the configured providers. Needs
 * `ChannelsSettings`, a `ChannelSimulatorStore` (PostgreSQL in the apps), the clock, ids,
 * randomness and `Repositories` (for the conversation windows) bound by the app.
 */
export const channelsModule = new ContainerModule(({ bind }) => {
  bind<ChannelGateway>(ChannelGateway)
    .toResolvedValue(
      (settings: ChannelsConfig, clock: Clock, ids: IdGenerator, random: Random, simulatorStore: ChannelSimulatorStore, repos: Repositories<ChannelRepositories>) =>
        createChannelGateway(settings, { clock, ids, random, simulatorStore, conversationWindows: repos.conversationWindows }),
      [ChannelsSettings, Clock, IdGenerator, Random, ChannelSimulatorStore, Repositories],
    )
    .inSingletonScope();
});
