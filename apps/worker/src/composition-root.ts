import 'reflect-metadata';
import { Container, type ContainerModule } from 'inversify';
import { Repositories } from '@carteiro/core';
import type { Kysely } from 'kysely';
import type PgBoss from 'pg-boss';
import { postgresModule, type Database, type ServiceRepositories } from '@carteiro/postgres';
import { QueueDefinitions, jobSchedulerFactory, pgBossModule } from '@carteiro/pgboss';
import { systemModule, type Config } from '@carteiro/system';
import { webhooksAdaptersModule } from '@carteiro/webhooks';
import { attachDatabaseMetrics, metricsModule, ProcessMetrics } from '@carteiro/metrics';
import { poolOf } from '@carteiro/postgres';
import { LaneRunner } from './campaigns/lane-runner.js';
import { Housekeeper, HousekeepingJob, housekeepingQueueDefinitions } from './housekeeping/housekeeping.job.js';
import { JobHandler } from './jobs/job-handler.js';
import { Logger } from './tokens.js';
import { webhooksModule } from './webhooks/webhooks.module.js';
import { channelsModule } from '@carteiro/channels';
import { channelWorkerModule } from './channel/channel.module.js';
import { contractsWorkerModule, workerSigningModule } from './contracts/contracts.module.js';
import { campaignsWorkerModule } from './campaigns/campaigns.module.js';
import { contactsWorkerModule } from './contacts/contacts.module.js';
import { leadsWorkerModule } from './leads/leads.module.js';
import { schedulingWorkerModule } from './scheduling/scheduling.module.js';
import { ticketClosingWorkerModule } from './tickets/ticket-closing.module.js';
import { ticketSnoozeWorkerModule } from './tickets/snooze.module.js';
import { receiptsWorkerModule } from './receipts/receipts.module.js';

/** How long domain events stay in the outbox table after the fan-out took them. */
export const DOMAIN_EVENT_RETENTION_MS = 30 * 86_400_000;

/** What the worker process is given by whoever starts it (the server, or a test). */
export interface WorkerInfrastructure {
  config: Config;
  db: Kysely<Database>;
  boss: PgBoss;
  logger: Logger;
  /** Applied last: tests rebind the clock or a gateway here. */
  overrides?: ContainerModule[];
  /** The process's metrics (the combined server shares one with its API); absent: the worker's own. */
  metrics?: ProcessMetrics;
}

/** The worker's composition root: the one place where its adapters are chosen. */
export function buildWorkerContainer(infra: WorkerInfrastructure): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(Logger).toConstantValue(infra.logger);
  container.load(systemModule(infra.config), postgresModule(infra.db, jobSchedulerFactory(infra.boss)), pgBossModule(infra.boss));
  container.bind(QueueDefinitions).toConstantValue(housekeepingQueueDefinitions);
  container.bind(JobHandler).to(HousekeepingJob);
  // The outbox only feeds the webhook fan-out, which copies what it needs: a month of history is kept.
  container
    .bind<(now: Date) => Promise<number>>(Housekeeper)
    .toResolvedValue((repos: ServiceRepositories) => (now: Date) => repos.events.purgeBefore(new Date(now.getTime() - DOMAIN_EVENT_RETENTION_MS)), [Repositories]);
  container.load(webhooksAdaptersModule({ allowPrivate: infra.config.allowPrivateWebhooks }), webhooksModule);
  container.load(channelsModule, channelWorkerModule);
  container.load(campaignsWorkerModule);
  container.load(workerSigningModule(), contractsWorkerModule);
  container.load(contactsWorkerModule);
  container.load(leadsWorkerModule);
  container.load(schedulingWorkerModule);
  container.load(ticketClosingWorkerModule);
  container.load(ticketSnoozeWorkerModule);
  container.load(receiptsWorkerModule);
  const metrics = infra.metrics ?? new ProcessMetrics();
  container.load(metricsModule(metrics));
  if (infra.overrides) container.load(...infra.overrides);
  attachDatabaseMetrics(metrics, { db: infra.db, appPool: poolOf(infra.db), boss: infra.boss });
  metrics.attachLanes(() => container.get(LaneRunner).active);
  return container;
}
