import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { subscribesTo, type Webhook } from './webhook.js';
import { runDeliveryCommand, type DeliveryEndpoint, type WebhookDelivery } from './webhook-delivery.js';
import type { ClaimedDelivery } from './webhook-delivery-repository.js';
import type { WebhookRepositories } from './webhook-repositories.js';

export interface FanOutOptions {
  /** Events taken from the queue in one transaction. */
  limit: number;
  /**
   * When set, the new deliveries are created already leased to the caller for this long and
   * returned, so that it can make their first attempts at once, without claiming them again.
   */
  leaseMs?: number;
}

export interface FanOutResult {
  events: number;
  deliveries: ClaimedDelivery[];
}

/**
 * Turns queued outbox events into deliveries: one per active webhook of the event's company
 * subscribed to it, plus one to the event's `callbackUrl` when it has one. Taking the events
 * and creating their deliveries is one transaction: a crash in between loses nothing.
 */
export class FanOutEvents {
  constructor(
    private readonly uow: UnitOfWork<WebhookRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(options: FanOutOptions): Promise<FanOutResult> {
    return this.uow.transaction(async (repos) => {
      const events = await repos.webhookEvents.take(options.limit);
      if (events.length === 0) return { events: 0, deliveries: [] };
      const now = this.clock.now();
      const companyIds = [...new Set(events.map((e) => e.companyId))];
      const byCompany = new Map<string, Webhook[]>();
      for (const webhook of await repos.webhooks.activeOfCompanies(companyIds)) {
        byCompany.set(webhook.companyId, [...(byCompany.get(webhook.companyId) ?? []), webhook]);
      }
      const lockedUntil = options.leaseMs !== undefined ? new Date(now.getTime() + options.leaseMs) : null;
      const claimed: ClaimedDelivery[] = [];
      const lease = (delivery: WebhookDelivery): WebhookDelivery => ({ ...delivery, lockedUntil });
      const create = (event: (typeof events)[number], target: DeliveryEndpoint): WebhookDelivery =>
        lease(runDeliveryCommand(null, { type: 'create', at: now, id: this.ids.newId(), event, target }).delivery);
      for (const event of events) {
        for (const webhook of byCompany.get(event.companyId) ?? []) {
          if (!subscribesTo(webhook, event.event)) continue;
          const delivery = create(event, { webhookId: webhook.id });
          claimed.push({ delivery, target: { url: webhook.url, secret: webhook.secret, active: true } });
        }
        if (event.callbackUrl) {
          const delivery = create(event, { callbackUrl: event.callbackUrl });
          claimed.push({ delivery, target: { url: event.callbackUrl, secret: null, active: true } });
        }
      }
      await repos.webhookDeliveries.insertMany(claimed.map((c) => c.delivery));
      return { events: events.length, deliveries: lockedUntil ? claimed : [] };
    });
  }
}
