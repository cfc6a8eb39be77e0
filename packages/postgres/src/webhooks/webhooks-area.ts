import * as m0005 from './0005-webhooks.js';
import * as m0016 from './0016-outbox-partitions.js';
import { postgresArea } from '../shared/postgres-area.js';
import { KyselyWebhookDeliveryRepository, KyselyWebhookEventQueue, KyselyWebhookRepository } from './kysely-webhook-repositories.js';

/** Webhook endpoints, deliveries with their attempts, and the queue the outbox trigger fills. */
export const webhooksArea = postgresArea({
  migrations: { '0005-webhooks': m0005, '0016-outbox-partitions': m0016 },
  repositories: (db) => ({
    webhooks: new KyselyWebhookRepository(db),
    webhookDeliveries: new KyselyWebhookDeliveryRepository(db),
    webhookEvents: new KyselyWebhookEventQueue(db),
  }),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { WebhooksTables } from './webhooks-tables.js';
