import { NotFoundError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { changeWebhook, type Webhook, type WebhookChanges } from './webhook.js';
import type { WebhookUrlPolicy } from './webhook-sender.js';
import type { WebhookRepositories } from './webhook-repositories.js';

/** A company's webhooks, oldest first. */
export class ListWebhooks {
  constructor(private readonly repos: Repositories<WebhookRepositories>) {}
  execute(companyId: string, page: PageRequest): Promise<Page<Webhook>> {
    return this.repos.webhooks.listByCompany(companyId, page);
  }
}

/** Changes url, events or active; a new URL passes the same safety check as at registration. */
export class UpdateWebhook {
  constructor(
    private readonly uow: UnitOfWork<WebhookRepositories>,
    private readonly clock: Clock,
    private readonly urlPolicy: WebhookUrlPolicy,
  ) {}

  async execute(companyId: string, id: string, changes: WebhookChanges): Promise<Webhook> {
    if (changes.url !== undefined) await this.urlPolicy.check(changes.url);
    return this.uow.transaction(async (repos) => {
      // Locked: an edit of other fields running at the same time waits and then starts from this one's result, instead
      // of writing back the fields it read before (the row is written whole).
      const webhook = await repos.webhooks.findByIdInCompanyForUpdate(companyId, id);
      if (!webhook) throw new NotFoundError('Webhook');
      const changed = changeWebhook(webhook, changes, this.clock.now());
      await repos.webhooks.update(changed);
      return changed;
    });
  }
}

/** Removes a webhook with its delivery log; pending deliveries to it are dropped. */
export class DeleteWebhook {
  constructor(private readonly uow: UnitOfWork<WebhookRepositories>) {}
  async execute(companyId: string, id: string): Promise<void> {
    const deleted = await this.uow.transaction((repos) => repos.webhooks.delete(companyId, id));
    if (!deleted) throw new NotFoundError('Webhook');
  }
}
