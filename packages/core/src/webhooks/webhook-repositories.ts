import type { WebhookDeliveryRepository } from './webhook-delivery-repository.js';
import type { WebhookEventQueue } from './webhook-event-queue.js';
import type { WebhookRepository } from './webhook-repository.js';

/** The webhooks area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface WebhookRepositories {
  webhooks: WebhookRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  webhookEvents: WebhookEventQueue;
}
