import { NotFoundError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { runDeliveryCommand } from './webhook-delivery.js';
import type { DeliveryStatusFilter, DeliveryWithAttempts } from './webhook-delivery-repository.js';
import type { WebhookRepositories } from './webhook-repositories.js';

/** The delivery log of one webhook, newest first, each delivery with its attempts. */
export class ListWebhookDeliveries {
  constructor(private readonly repos: Repositories<WebhookRepositories>) {}
  async execute(companyId: string, webhookId: string, page: PageRequest, status?: DeliveryStatusFilter): Promise<Page<DeliveryWithAttempts>> {
    const webhook = await this.repos.webhooks.findByIdInCompany(companyId, webhookId);
    if (!webhook) throw new NotFoundError('Webhook');
    return this.repos.webhookDeliveries.listByWebhook(companyId, webhookId, page, status);
  }
}

/**
 * Queues a finished delivery again: same id (`X-Webhook-Id`) and body, a new round of up to five
 * attempts to the webhook's current URL and secret. A pending delivery answers 409.
 */
export class RedeliverWebhookDelivery {
  constructor(
    private readonly uow: UnitOfWork<WebhookRepositories>,
    private readonly clock: Clock,
  ) {}

  async execute(companyId: string, webhookId: string, deliveryId: string): Promise<DeliveryWithAttempts> {
    return this.uow.transaction(async (repos) => {
      const found = await repos.webhookDeliveries.findInWebhook(companyId, webhookId, deliveryId);
      if (!found) throw new NotFoundError('Webhook delivery');
      const { attemptLog, ...delivery } = found;
      const queued = runDeliveryCommand(delivery, { type: 'redeliver', at: this.clock.now() }).delivery;
      await repos.webhookDeliveries.update(queued);
      return { ...queued, attemptLog };
    });
  }
}
