import {
  ChannelGateway,
  channelQueueDefinitions,
  ChannelSimulatorStore,
  CheckChannelHealth,
  Clock,
  IdGenerator,
  Repositories,
  UnitOfWork,
} from '@carteiro/core';
import { ChannelsSettings, channelsSettingsFrom, type ChannelsConfig } from '@carteiro/channels';
import { QueueDefinitions } from '@carteiro/pgboss';
import { Db, KyselyChannelSimulatorStore, type Database } from '@carteiro/postgres';
import { AppConfig, type Config, bindSingleton } from '@carteiro/system';
import { ContainerModule } from 'inversify';
import type { Kysely } from 'kysely';
import { Housekeeper } from '../housekeeping/housekeeping.job.js';
import { JobHandler } from '../jobs/job-handler.js';
import { ChannelHealthAtConnectionJob } from './channel-health-at-connection.job.js';
import { channelHealthJob } from './channel-health.job.js';
import { Logger } from '../tokens.js';

/** The simulator's outbox is a development aid: a week of it is kept. */
export const SIMULATOR_OUTBOX_RETENTION_MS = 7 * 86_400_000;

/**
 * The worker's channel side: the settings and PostgreSQL simulator store the gateway router needs
 * (`channelsModule` of @carteiro/channels binds the router), the periodic health job and the
 * check of a number that just connected.
 */
export const channelWorkerModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(channelQueueDefinitions);
  bind<ChannelsConfig>(ChannelsSettings).toResolvedValue((config: Config) => channelsSettingsFrom(config), [AppConfig]).inSingletonScope();
  bind<ChannelSimulatorStore>(ChannelSimulatorStore)
    .toResolvedValue((db: Kysely<Database>) => new KyselyChannelSimulatorStore(db), [Db])
    .inSingletonScope();
  bindSingleton(bind, CheckChannelHealth, [UnitOfWork, Repositories, ChannelGateway, Clock, IdGenerator]);
  bind(JobHandler).toResolvedValue(channelHealthJob, [CheckChannelHealth, Logger]).inSingletonScope();
  bind(JobHandler).to(ChannelHealthAtConnectionJob).inSingletonScope();
  bind<(now: Date) => Promise<number>>(Housekeeper).toResolvedValue(
    (store: ChannelSimulatorStore) => (now: Date) => store.purgeMessagesBefore(new Date(now.getTime() - SIMULATOR_OUTBOX_RETENTION_MS)),
    [ChannelSimulatorStore],
  );
});
