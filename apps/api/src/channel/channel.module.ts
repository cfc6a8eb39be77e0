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
import { Db, KyselyChannelSimulatorStore, type Database } from '@carteiro/postgres';
import { AppConfig, bindSingleton, type Config } from '@carteiro/system';
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
  bindSingleton(bind, CreateChannelInstance, [UnitOfWork, Clock, IdGenerator]);
  const withGateway = [UnitOfWork, Repositories, ChannelGateway, Clock, IdGenerator] as const;
  bindSingleton(bind, RequestInstanceQr, [...withGateway]);
  bindSingleton(bind, GetInstanceStatus, [...withGateway]);
  bindSingleton(bind, DisconnectChannelInstance, [...withGateway]);
  bindSingleton(bind, CheckChannelHealth, [...withGateway]);
  bindSingleton(bind, GetChannelHealth, [Repositories, Clock]);
  bindSingleton(bind, ListChannelInstances, [Repositories]);
  bindSingleton(bind, RefreshInstanceProfile, [UnitOfWork, Repositories, ChannelGateway, Clock]);
  bindSingleton(bind, UpdateChannelProfiles, [UnitOfWork, Repositories, ChannelGateway, Clock]);
});
