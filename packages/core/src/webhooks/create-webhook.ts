import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Random } from '../shared/random.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { createWebhook, newWebhookSecret, type NewWebhook, type Webhook } from './webhook.js';
import type { WebhookUrlPolicy } from './webhook-sender.js';
import type { WebhookRepositories } from './webhook-repositories.js';

/** Registers a webhook; the result carries the secret, which is never shown again. */
export class CreateWebhook {
  constructor(
    private readonly uow: UnitOfWork<WebhookRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly urlPolicy: WebhookUrlPolicy,
  ) {}

  async execute(companyId: string, input: NewWebhook): Promise<Webhook> {
    const webhook = createWebhook(this.ids.newId(), companyId, newWebhookSecret(this.random), this.clock.now(), input);
    await this.urlPolicy.check(webhook.url);
    await this.uow.transaction((repos) => repos.webhooks.insert(webhook));
    return webhook;
  }
}
