import {
  ChannelGateway,
  channelQueueDefinitions,
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
import { QueueDefinitions } from '@carteiro/pgboss';
import { Db, KyselyChannelSimulatorStore, type Database, type ServiceRepositories, type ServiceUnitOfWork } from '@carteiro/postgres';
import { AppConfig, type Config } from '@carteiro/system';
import { ContainerModule } from 'inversify';
import type { Kysely } from 'kysely';

/**
 * Channel instances: the simulator's PostgreSQL store, the settings the gateway router reads
 * (`channelsModule` of @carteiro/channels binds the router), the use cases and the routes.
 */
export const channelModule = new ContainerModule(({ bind }) => {
  // Recording a connection enqueues its health check: the API creates the channel queues too.
  bind(QueueDefinitions).toConstantValue(channelQueueDefinitions);
  bind<ChannelsConfig>(ChannelsSettings).toResolvedValue((config: Config) => channelsSettingsFrom(config), [AppConfig]).inSingletonScope();
  bind<ChannelSimulatorStore>(ChannelSimulatorStore)
    .toResolvedValue((db: Kysely<Database>) => new KyselyChannelSimulatorStore(db), [Db])
    .inSingletonScope();
  bind(CreateChannelInstance)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new CreateChannelInstance(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  const withGateway = [UnitOfWork, Repositories, ChannelGateway, Clock, IdGenerator] as const;
  type WithGateway = [ServiceUnitOfWork, ServiceRepositories, ChannelGateway, Clock, IdGenerator];
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
    .toResolvedValue((repos: ServiceRepositories, clock: Clock) => new GetChannelHealth(repos, clock), [Repositories, Clock])
    .inSingletonScope();
  bind(ListChannelInstances)
    .toResolvedValue((repos: ServiceRepositories) => new ListChannelInstances(repos), [Repositories])
    .inSingletonScope();
  bind(RefreshInstanceProfile)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, repos: ServiceRepositories, gateway: ChannelGateway, clock: Clock) => new RefreshInstanceProfile(uow, repos, gateway, clock),
      [UnitOfWork, Repositories, ChannelGateway, Clock],
    )
    .inSingletonScope();
  bind(UpdateChannelProfiles)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, repos: ServiceRepositories, gateway: ChannelGateway, clock: Clock) => new UpdateChannelProfiles(uow, repos, gateway, clock),
      [UnitOfWork, Repositories, ChannelGateway, Clock],
    )
    .inSingletonScope();
});
