import 'reflect-metadata';
import { Container, type ContainerModule } from 'inversify';
import type { Kysely } from 'kysely';
import type PgBoss from 'pg-boss';
import { hashApiKey } from '@carteiro/core';
import { postgresModule, type Database } from '@carteiro/postgres';
import { jobSchedulerFactory, pgBossModule } from '@carteiro/pgboss';
import { systemModule, type Config } from '@carteiro/system';
import { webhooksAdaptersModule } from '@carteiro/webhooks';
import { attachDatabaseMetrics, metricsModule, ProcessMetrics } from '@carteiro/metrics';
import { poolOf } from '@carteiro/postgres';
import { foundationModule } from './foundation/foundation.module.js';
import { webhooksModule } from './webhooks/webhooks.module.js';
import { channelsModule } from '@carteiro/channels';
import { channelModule } from './channel/channel.module.js';
import { messagesModule } from './messages/messages.module.js';
import { providerWebhooksModule } from './provider-webhooks/provider-webhooks.module.js';
import { campaignsModule } from './campaigns/campaigns.module.js';
import { agentsModule } from './agents/agents.module.js';
import { contactsModule } from './contacts/contacts.module.js';
import { crmModule } from './crm/crm.module.js';
import { contractsModule } from './contracts/contracts.module.js';
import { signingConfigFromEnv, signingModule } from '@carteiro/signing';
import { schedulingModule } from './scheduling/scheduling.module.js';
import { leadsModule } from './leads/leads.module.js';
import { reportsModule } from './reports/reports.module.js';
import { billingModule } from './billing/billing.module.js';
import { ticketRepliesModule } from './tickets/ticket-replies.module.js';
import { ticketsModule } from './tickets/tickets.module.js';
import { ApiSettings, Logger, OpenApiDocumentJson } from './http/tokens.js';
import { buildOpenApiDocument } from './openapi/document.js';

/** What the API process is given by whoever starts it (the server, or a test). */
export interface ApiInfrastructure {
  config: Config;
  db: Kysely<Database>;
  boss: PgBoss;
  logger: Logger;
  readiness: () => Promise<boolean>;
  /** SHA-256 of the admin token; defaults to the hash of `config.adminToken`. */
  adminTokenHash?: string;
  /** Applied last: tests rebind the clock or a gateway here. */
  overrides?: ContainerModule[];
  /** The process's metrics (the combined server shares one with its worker); absent: the API's own. */
  metrics?: ProcessMetrics;
}

/**
 * The API's composition root: the one place where its adapters are chosen. Feature modules
 * are listed here in dependency order.
 */
export function buildApiContainer(infra: ApiInfrastructure): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(Logger).toConstantValue(infra.logger);
  container.bind<ApiSettings>(ApiSettings).toConstantValue({
    adminTokenHash: infra.adminTokenHash ?? (infra.config.adminToken ? hashApiKey(infra.config.adminToken) : undefined),
    readiness: infra.readiness,
    bodyLimit: '5mb',
  });
  // Built on first request: the routes and their schemas do not change while the process runs.
  let documentJson: string | undefined;
  container.bind<OpenApiDocumentJson>(OpenApiDocumentJson).toConstantValue(() => (documentJson ??= JSON.stringify(buildOpenApiDocument())));
  container.load(
    systemModule(infra.config),
    postgresModule(infra.db, jobSchedulerFactory(infra.boss)),
    pgBossModule(infra.boss),
    // The API sends only test deliveries: a few sockets per receiver host.
    webhooksAdaptersModule({ allowPrivate: infra.config.allowPrivateWebhooks, maxSocketsPerHost: 8 }),
    foundationModule,
    webhooksModule,
    channelsModule,
    channelModule,
    messagesModule,
    providerWebhooksModule,
    campaignsModule,
    contactsModule,
    agentsModule,
    crmModule,
    signingModule(signingConfigFromEnv(process.env)),
    contractsModule,
    schedulingModule,
    leadsModule,
    reportsModule,
    billingModule,
    ticketRepliesModule,
    ticketsModule,
  );
  const metrics = infra.metrics ?? new ProcessMetrics();
  container.load(metricsModule(metrics));
  if (infra.overrides) container.load(...infra.overrides);
  attachDatabaseMetrics(metrics, { db: infra.db, appPool: poolOf(infra.db), boss: infra.boss });
  return container;
}
