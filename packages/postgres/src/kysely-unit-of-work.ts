import type { JobScheduler, Repositories, UnitOfWork } from '@carteiro/core';
import { CompiledQuery, type Kysely } from 'kysely';
import { KyselyApiKeyRepository } from './repositories/kysely-api-key-repository.js';
import { KyselyChannelInstanceRepository } from './repositories/kysely-channel-instance-repository.js';
import { KyselyChannelHealthRepository } from './repositories/kysely-channel-health-repository.js';
import { KyselyConversationWindowRepository } from './repositories/kysely-channel-conversation-window-repository.js';
import { KyselyCompanyRepository } from './repositories/kysely-company-repository.js';
import { KyselyEventOutbox } from './repositories/kysely-event-outbox.js';
import { KyselySetorRepository } from './repositories/kysely-setor-repository.js';
import { KyselyTeamRepository } from './repositories/kysely-team-repository.js';
import { KyselyUsageRepository } from './repositories/kysely-usage-repository.js';
import { KyselyContactAffinityRepository, KyselyContactRepository, KyselyTagRepository } from './repositories/kysely-contact-repositories.js';
import { KyselyConversationRepository, KyselyMessageRepository, KyselyRotationCursorRepository } from './repositories/kysely-message-repositories.js';
import { KyselyWebhookDeliveryRepository, KyselyWebhookEventQueue, KyselyWebhookRepository } from './repositories/kysely-webhook-repositories.js';
import { KyselyCampaignRepository, KyselyDispatchLaneRepository, KyselyIdempotencyRepository } from './repositories/kysely-campaign-repositories.js';
import type { Database } from './schema/database.js';

/** Runs raw SQL on a Kysely connection or transaction (how the job queue joins our transactions). */
export type SqlExecutor = (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;

/** Builds the job scheduler that writes through the given executor. */
export type JobSchedulerFactory = (executor: SqlExecutor) => JobScheduler;

export function sqlExecutor(db: Kysely<Database>): SqlExecutor {
  return async (text, values) => {
    const result = await db.executeQuery(CompiledQuery.raw(text, values));
    return { rows: result.rows as unknown[] };
  };
}

/** A scheduler for processes or tests without a queue: enqueuing is a programming error there. */
export const noJobScheduler: JobSchedulerFactory = () => ({
  enqueue: async (queue) => {
    throw new Error(`No job queue is configured (tried to enqueue on ${queue})`);
  },
});

/** Every Kysely repository over one connection or transaction. */
export function kyselyRepositories(db: Kysely<Database>, jobs: JobSchedulerFactory = noJobScheduler): Repositories {
  return {
    companies: new KyselyCompanyRepository(db),
    apiKeys: new KyselyApiKeyRepository(db),
    setores: new KyselySetorRepository(db),
    teams: new KyselyTeamRepository(db),
    usage: new KyselyUsageRepository(db),
    events: new KyselyEventOutbox(db),
    channelInstances: new KyselyChannelInstanceRepository(db),
    channelHealth: new KyselyChannelHealthRepository(db),
    conversationWindows: new KyselyConversationWindowRepository(db),
    contacts: new KyselyContactRepository(db),
    contactAffinities: new KyselyContactAffinityRepository(db),
    tags: new KyselyTagRepository(db),
    rotationCursors: new KyselyRotationCursorRepository(db),
    conversations: new KyselyConversationRepository(db),
    messages: new KyselyMessageRepository(db),
    webhooks: new KyselyWebhookRepository(db),
    webhookDeliveries: new KyselyWebhookDeliveryRepository(db),
    webhookEvents: new KyselyWebhookEventQueue(db),
    jobs: jobs(sqlExecutor(db)),
    campaigns: new KyselyCampaignRepository(db),
    dispatchLanes: new KyselyDispatchLaneRepository(db),
    idempotency: new KyselyIdempotencyRepository(db),
  };
}

export class KyselyUnitOfWork implements UnitOfWork {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: JobSchedulerFactory = noJobScheduler,
  ) {}

  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(kyselyRepositories(trx, this.jobs)));
  }
}
