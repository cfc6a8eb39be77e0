import {
  ChannelGateway,
  ChannelSimulatorStore,
  CheckChannelHealth,
  Clock,
  CreateChannelInstance,
  DisconnectChannelInstance,
  GetChannelHealth,
  GetInstanceStatus,
  IdGenerator,
  ListChannelInstances,
  RefreshInstanceProfile,
  Repositories,
  RequestInstanceQr,
  UnitOfWork,
  UpdateChannelProfiles,
} from '@carteiro/core';
import { ChannelsSettings, channelsSettingsFrom, type ChannelsConfig } from '@carteiro/channels';
import { Db, KyselyChannelSimulatorStore, type Database } from '@carteiro/postgres';
import { AppConfig, type Config } from '@carteiro/system';
import { ContainerModule } from 'inversify';
import type { Kysely } from 'kysely';
import { AdminController, Controller } from '../http/controller.js';
import { AdminSimulatorController } from './admin-simulator.controller.js';
import { ChannelController } from './channel.controller.js';

/**
 * Channel instances: the simulator's PostgreSQL store, the settings the gateway router reads
 * (`channelsModule` of @carteiro/channels binds the router), the use cases and the routes.
 */
export const channelModule = new ContainerModule(({ bind }) => {
  bind<ChannelsConfig>(ChannelsSettings).toResolvedValue((config: Config) => channelsSettingsFrom(config), [AppConfig]).inSingletonScope();
  bind<ChannelSimulatorStore>(ChannelSimulatorStore)
    .toResolvedValue((db: Kysely<Database>) => new KyselyChannelSimulatorStore(db), [Db])
    .inSingletonScope();
  bind(CreateChannelInstance)
    .toResolvedValue((uow: UnitOfWork, clock: Clock, ids: IdGenerator) => new CreateChannelInstance(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  const withGateway = [UnitOfWork, Repositories, ChannelGateway, Clock, IdGenerator] as const;
  type WithGateway = [UnitOfWork, Repositories, ChannelGateway, Clock, IdGenerator];
  bind(RequestInstanceQr)
    .toResolvedValue((...deps: WithGateway) => new RequestInstanceQr(...deps), [...withGateway])
    .inSingletonScope();
  bind(GetInstanceStatus)
    .toResolvedValue((...deps: WithGateway) => new GetInstanceStatus(...deps), [...withGateway])
    .inSingletonScope();
  bind(DisconnectChannelInstance)
    .toResolvedValue((...deps: WithGateway) => new DisconnectChannelInstance(...deps), [...withGateway])
    .inSingletonScope();
  bind(CheckChannelHealth)
    .toResolvedValue((...deps: WithGateway) => new CheckChannelHealth(...deps), [...withGateway])
    .inSingletonScope();
  bind(GetChannelHealth)
    .toResolvedValue((repos: Repositories, clock: Clock) => new GetChannelHealth(repos, clock), [Repositories, Clock])
    .inSingletonScope();
  bind(ListChannelInstances)
    .toResolvedValue((repos: Repositories) => new ListChannelInstances(repos), [Repositories])
    .inSingletonScope();
  bind(RefreshInstanceProfile)
    .toResolvedValue(
      (uow: UnitOfWork, repos: Repositories, gateway: ChannelGateway, clock: Clock) => new RefreshInstanceProfile(uow, repos, gateway, clock),
      [UnitOfWork, Repositories, ChannelGateway, Clock],
    )
    .inSingletonScope();
  bind(UpdateChannelProfiles)
    .toResolvedValue(
      (uow: UnitOfWork, repos: Repositories, gateway: ChannelGateway, clock: Clock) => new UpdateChannelProfiles(uow, repos, gateway, clock),
      [UnitOfWork, Repositories, ChannelGateway, Clock],
    )
    .inSingletonScope();
  bind(Controller).to(ChannelController).inSingletonScope();
  bind(AdminController).to(AdminSimulatorController).inSingletonScope();
});
