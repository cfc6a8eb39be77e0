import type { DomainEvent } from '../../shared/domain-event.js';
import type { PageRequest } from '../../shared/pagination.js';
import type { Webhook } from '../index.js';
import type { DeliveryAttempt, WebhookDelivery } from '../index.js';
import type {
  ClaimedDelivery,
  DeliveryStatusFilter,
  DeliveryUpdate,
  DeliveryWithAttempts,
  WebhookDeliveryRepository,
} from '../index.js';
import type { WebhookEventQueue } from '../index.js';
import type { WebhookRepository } from '../index.js';
import { InMemoryCompanyRecords } from '../../shared/testing/in-memory-company-records.js';
import { paginate, type InMemoryStore } from '../../shared/testing/in-memory-store.js';
import type { WebhookRepositories } from '../webhook-repositories.js';

// Tables are looked up on every call: a rolled-back transaction replaces the store's maps.
const webhooks = (store: InMemoryStore) => store.table('webhooks', () => new Map<string, Webhook>());
const deliveries = (store: InMemoryStore) => store.table('webhookDeliveries', () => new Map<string, WebhookDelivery>());
const attempts = (store: InMemoryStore) => store.table('webhookAttempts', () => new Map<string, DeliveryAttempt[]>());
/** How many outbox events (`store.events`, in order) have been fanned out. */
const cursor = (store: InMemoryStore) => store.table('webhookEventCursor', () => ({ taken: 0 }));

export class InMemoryWebhookRepository extends InMemoryCompanyRecords<Webhook> implements WebhookRepository {
  constructor(store: InMemoryStore) {
    super(store, webhooks);
  }
  async delete(companyId: string, id: string) {
    const found = webhooks(this.store).get(id);
    if (!found || found.companyId !== companyId) return false;
    webhooks(this.store).delete(id);
    for (const [deliveryId, delivery] of deliveries(this.store)) {
      if (delivery.webhookId === id) {
        deliveries(this.store).delete(deliveryId);
        attempts(this.store).delete(deliveryId);
      }
    }
    return true;
  }
  findByIdInCompany(companyId: string, id: string) {
    return this.findById(companyId, id);
  }
  findByIdInCompanyForUpdate(companyId: string, id: string) {
    return this.findById(companyId, id);
  }
  async listByCompany(companyId: string, page: PageRequest) {
    const all = [...webhooks(this.store).values()]
      .filter((w) => w.companyId === companyId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
    return paginate(all.map((w) => structuredClone(w)), page);
  }
  async activeOfCompanies(companyIds: readonly string[]) {
    return [...webhooks(this.store).values()].filter((w) => w.active && companyIds.includes(w.companyId)).map((w) => structuredClone(w));
  }
}

export class InMemoryWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly store: InMemoryStore) {}

  private withAttempts(delivery: WebhookDelivery): DeliveryWithAttempts {
    return { ...structuredClone(delivery), attemptLog: structuredClone(attempts(this.store).get(delivery.id) ?? []) };
  }

  async insertMany(list: readonly WebhookDelivery[]) {
    for (const delivery of list) deliveries(this.store).set(delivery.id, structuredClone(delivery));
  }

  async claimDue(now: Date, limit: number, lockedUntil: Date): Promise<ClaimedDelivery[]> {
    const due = [...deliveries(this.store).values()]
      .filter((d) => d.status === 'pending' && d.nextAttemptAt !== null && d.nextAttemptAt <= now && (d.lockedUntil === null || d.lockedUntil <= now))
      .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime() || a.id.localeCompare(b.id))
      .slice(0, limit);
    return due.map((d) => {
      d.lockedUntil = lockedUntil;
      const webhook = d.webhookId ? webhooks(this.store).get(d.webhookId) : undefined;
      const target = webhook
        ? { url: webhook.url, secret: webhook.secret, active: webhook.active }
        : { url: d.callbackUrl ?? '', secret: null, active: d.callbackUrl !== null };
      return { delivery: structuredClone(d), target };
    });
  }

  async saveAttempts(updates: readonly DeliveryUpdate[]) {
    for (const { delivery, attempt } of updates) {
      if (!deliveries(this.store).has(delivery.id)) continue;
      deliveries(this.store).set(delivery.id, structuredClone(delivery));
      if (attempt) attempts(this.store).set(delivery.id, [...(attempts(this.store).get(delivery.id) ?? []), structuredClone(attempt)]);
    }
  }

  async update(delivery: WebhookDelivery) {
    if (deliveries(this.store).has(delivery.id)) deliveries(this.store).set(delivery.id, structuredClone(delivery));
  }

  async findInWebhook(companyId: string, webhookId: string, id: string) {
    const found = deliveries(this.store).get(id);
    return found && found.companyId === companyId && found.webhookId === webhookId ? this.withAttempts(found) : null;
  }

  async listByWebhook(companyId: string, webhookId: string, page: PageRequest, status?: DeliveryStatusFilter) {
    const all = [...deliveries(this.store).values()]
      .filter((d) => d.companyId === companyId && d.webhookId === webhookId && (!status || d.status === status))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
    return paginate(all.map((d) => this.withAttempts(d)), page);
  }

  async nextWakeUp(now: Date) {
    let next: Date | null = null;
    for (const d of deliveries(this.store).values()) {
      if (d.status !== 'pending' || d.nextAttemptAt === null) continue;
      const at = d.lockedUntil && d.lockedUntil > now && d.lockedUntil > d.nextAttemptAt ? d.lockedUntil : d.nextAttemptAt;
      if (next === null || at < next) next = at;
    }
    return next;
  }

  async purgeFinishedBefore(before: Date) {
    let removed = 0;
    for (const [id, d] of deliveries(this.store)) {
      if (d.status !== 'pending' && d.completedAt !== null && d.completedAt < before) {
        deliveries(this.store).delete(id);
        attempts(this.store).delete(id);
        removed += 1;
      }
    }
    return removed;
  }

  /** Every delivery, in creation order (for assertions in tests). */
  all(): DeliveryWithAttempts[] {
    return [...deliveries(this.store).values()].map((d) => this.withAttempts(d));
  }
}

export class InMemoryWebhookEventQueue implements WebhookEventQueue {
  constructor(private readonly store: InMemoryStore) {}
  async take(limit: number): Promise<DomainEvent[]> {
    const position = cursor(this.store);
    const taken = this.store.events.slice(position.taken, position.taken + limit);
    position.taken += taken.length;
    return structuredClone(taken);
  }
}

/** The webhook area's fakes over one store. */
export function inMemoryWebhookRepositories(store: InMemoryStore): WebhookRepositories {
  return {
    webhooks: new InMemoryWebhookRepository(store),
    webhookDeliveries: new InMemoryWebhookDeliveryRepository(store),
    webhookEvents: new InMemoryWebhookEventQueue(store),
  };
}
