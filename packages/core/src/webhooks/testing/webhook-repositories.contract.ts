import { describe, expect, it } from '@jest/globals';
import { createCompany } from '../../companies/index.js';
import type { DomainEvent, EventName } from '../../shared/domain-event.js';
import { createWebhook, type Webhook } from '../index.js';
import { retryPolicy, runDeliveryCommand, type DeliveryEndpoint, type WebhookDelivery } from '../index.js';
import { SequentialIds } from '../../shared/testing/deterministic.js';
import type { RepositoriesUnderTest } from '../../shared/testing/index.js';
import type { CompanyRepositories } from '../../companies/index.js';
import type { WebhookRepositories } from '../index.js';

/** The areas this suite reads and writes. */
type Areas = CompanyRepositories & WebhookRepositories;

const t0 = new Date('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

/**
 * The behaviour every implementation of the webhook repositories (subscriptions, deliveries with
 * their attempts and leases, the fan-out queue) must show.
 */
export function describeWebhookRepositoriesContract(name: string, setup: () => Promise<RepositoriesUnderTest<Areas>>): void {
  describe(`webhook repositories contract: ${name}`, () => {
    const ids = new SequentialIds();
    const id = () => `20000000-${ids.newId().slice(9)}`;
    const fresh = async () => {
      const sut = await setup();
      const company = createCompany(id(), t0, { name: 'Acme' });
      await sut.repos.companies.insert(company);
      const webhook = (events: EventName[], active = true, created = t0): Webhook =>
        createWebhook(id(), company.id, 'ab'.repeat(32), created, { url: `https://example.com/${ids.newId()}`, events, active });
      const event = (name: EventName, extra: Partial<DomainEvent> = {}): DomainEvent => ({
        id: id(),
        event: name,
        companyId: company.id,
        setorId: null,
        occurredAt: t0,
        data: { campaignId: 'c1' },
        actor: { user_id: null, source: 'system' },
        ...extra,
      });
      /** A new delivery of a new event `name` to `target`, created `ms` after t0. */
      const delivery = (name: EventName, target: DeliveryEndpoint, ms = 0): WebhookDelivery =>
        runDeliveryCommand(null, { type: 'create', at: at(ms), id: id(), event: event(name), target }).delivery;
      return { ...sut, company, webhook, event, delivery };
    };

    it('stores webhooks per company and lists them oldest first', async () => {
      const { repos, uow, company, webhook } = await fresh();
      const a = webhook(['message.sent'], true, at(1));
      const b = webhook(['campaign.completed', 'message.failed'], false, at(0));
      await repos.webhooks.insert(a);
      await repos.webhooks.insert(b);
      expect(await repos.webhooks.findByIdInCompany(company.id, a.id)).toEqual(a);
      expect(await repos.webhooks.findByIdInCompany(id(), a.id)).toBeNull();
      const page = await repos.webhooks.listByCompany(company.id, { page: 1, limit: 1 });
      expect(page.items.map((w) => w.id)).toEqual([b.id]);
      expect(page.totalPages).toBe(2);
      await repos.webhooks.update({ ...b, active: true, url: 'https://example.org/x', updatedAt: at(5) });
      expect((await repos.webhooks.findByIdInCompany(company.id, b.id))?.url).toBe('https://example.org/x');
      expect((await uow.transaction((tx) => tx.webhooks.findByIdInCompanyForUpdate(company.id, b.id)))?.url).toBe('https://example.org/x');
      expect(await uow.transaction((tx) => tx.webhooks.findByIdInCompanyForUpdate(id(), b.id))).toBeNull();
      expect((await repos.webhooks.activeOfCompanies([company.id])).map((w) => w.id).sort()).toEqual([a.id, b.id].sort());
      expect(await repos.webhooks.delete(id(), a.id)).toBe(false);
      expect(await repos.webhooks.delete(company.id, a.id)).toBe(true);
      expect(await repos.webhooks.findByIdInCompany(company.id, a.id)).toBeNull();
    });

    it('hands each outbox event to the fan-out once, and keeps it when the transaction rolls back', async () => {
      const { uow, repos, event } = await fresh();
      // Drain what earlier cases left in a shared outbox.
      while ((await uow.transaction((tx) => tx.webhookEvents.take(1000))).length > 0);
      const e1 = event('message.sent');
      const e2 = event('campaign.completed', { callbackUrl: 'https://example.com/cb' });
      await uow.transaction((tx) => tx.events.record([e1, e2]));
      await expect(
        uow.transaction(async (tx) => {
          expect((await tx.webhookEvents.take(10)).map((e) => e.id)).toEqual([e1.id, e2.id]);
          throw new Error('crash before the deliveries were stored');
        }),
      ).rejects.toThrow('crash');
      const first = await uow.transaction((tx) => tx.webhookEvents.take(1));
      expect(first).toEqual([e1]);
      const second = await uow.transaction((tx) => tx.webhookEvents.take(10));
      expect(second).toEqual([e2]);
      expect(await uow.transaction((tx) => tx.webhookEvents.take(10))).toEqual([]);
      void repos;
    });

    it('leases due deliveries to one claimer at a time and stores attempts', async () => {
      const { uow, repos, company, webhook, delivery } = await fresh();
      const hook = webhook(['message.sent']);
      await repos.webhooks.insert(hook);
      const d1 = delivery('message.sent', { webhookId: hook.id });
      const d2 = delivery('message.sent', { webhookId: hook.id }, 10);
      const later: WebhookDelivery = { ...delivery('message.sent', { webhookId: hook.id }), nextAttemptAt: at(60_000) };
      await repos.webhookDeliveries.insertMany([d1, d2, later]);

      const claimed = await uow.transaction((tx) => tx.webhookDeliveries.claimDue(at(20), 10, at(30_020)));
      expect(claimed.map((c) => c.delivery.id)).toEqual([d1.id, d2.id]);
      expect(claimed[0]?.target).toEqual({ url: hook.url, secret: hook.secret, active: true });
      expect(claimed[0]?.delivery.payload).toBe(d1.payload);
      expect(await uow.transaction((tx) => tx.webhookDeliveries.claimDue(at(25), 10, at(30_025)))).toEqual([]);
      expect(await repos.webhookDeliveries.nextWakeUp(at(25))).toEqual(at(30_020));

      const policy = retryPolicy(1000);
      const failed = runDeliveryCommand(claimed[0]!.delivery, { type: 'attempt', at: at(40), startedAt: at(20), outcome: { kind: 'response', statusCode: 500, durationMs: 12 }, policy });
      const ok = runDeliveryCommand(claimed[1]!.delivery, { type: 'attempt', at: at(40), startedAt: at(20), outcome: { kind: 'response', statusCode: 204, durationMs: 7 }, policy });
      await uow.transaction((tx) => tx.webhookDeliveries.saveAttempts([failed, ok]));
      expect(await repos.webhookDeliveries.nextWakeUp(at(50))).toEqual(at(1040));

      const logged = await repos.webhookDeliveries.findInWebhook(company.id, hook.id, d1.id);
      expect(logged?.status).toBe('pending');
      expect(logged?.attempts).toBe(1);
      expect(logged?.nextAttemptAt).toEqual(at(1040));
      expect(logged?.attemptLog).toEqual([failed.attempt]);
      expect(await repos.webhookDeliveries.findInWebhook(id(), hook.id, d1.id)).toBeNull();

      const retried = await uow.transaction((tx) => tx.webhookDeliveries.claimDue(at(1040), 10, at(40_000)));
      expect(retried.map((c) => c.delivery.id)).toEqual([d1.id]);
      expect(retried[0]?.delivery.attempts).toBe(1);

      // An expired lease (a dead worker) is taken over.
      expect((await uow.transaction((tx) => tx.webhookDeliveries.claimDue(at(60_001), 10, at(100_000)))).map((c) => c.delivery.id)).toEqual([
        d1.id,
        later.id,
      ]);

      const page = await repos.webhookDeliveries.listByWebhook(company.id, hook.id, { page: 1, limit: 10 });
      expect(page.total).toBe(3);
      expect(page.items[0]?.id).toBe(d2.id);
      const succeeded = await repos.webhookDeliveries.listByWebhook(company.id, hook.id, { page: 1, limit: 10 }, 'succeeded');
      expect(succeeded.items.map((d) => d.id)).toEqual([d2.id]);
      expect(succeeded.items[0]?.attemptLog).toEqual([ok.attempt]);

      const again = runDeliveryCommand(ok.delivery, { type: 'redeliver', at: at(50_000) }).delivery;
      await repos.webhookDeliveries.update(again);
      expect((await repos.webhookDeliveries.findInWebhook(company.id, hook.id, d2.id))?.status).toBe('pending');
    });

    it('gives callback deliveries their URL without a secret, and drops outcomes of deleted webhooks', async () => {
      const { uow, repos, company, webhook, delivery } = await fresh();
      const hook = webhook(['campaign.completed']);
      await repos.webhooks.insert(hook);
      const callback = delivery('campaign.completed', { callbackUrl: 'https://cb.example.com/done' });
      const toHook = delivery('campaign.completed', { webhookId: hook.id });
      await repos.webhookDeliveries.insertMany([callback, toHook]);
      const claimed = await uow.transaction((tx) => tx.webhookDeliveries.claimDue(at(1), 10, at(30_000)));
      const byId = new Map(claimed.map((c) => [c.delivery.id, c]));
      expect(byId.get(callback.id)?.target).toEqual({ url: 'https://cb.example.com/done', secret: null, active: true });
      await repos.webhooks.delete(company.id, hook.id);
      const outcome = runDeliveryCommand(byId.get(toHook.id)!.delivery, { type: 'attempt', at: at(5001), startedAt: at(1), outcome: { kind: 'timeout', durationMs: 5000 }, policy: retryPolicy(10) });
      await uow.transaction((tx) => tx.webhookDeliveries.saveAttempts([outcome]));
      expect(await repos.webhookDeliveries.findInWebhook(company.id, hook.id, toHook.id)).toBeNull();
    });
    it('purges finished deliveries older than the retention, never pending ones', async () => {
      const { uow, repos, company, webhook, delivery } = await fresh();
      const hook = webhook(['message.sent']);
      await repos.webhooks.insert(hook);
      const done = delivery('message.sent', { webhookId: hook.id });
      const waiting = delivery('message.sent', { webhookId: hook.id });
      await repos.webhookDeliveries.insertMany([done, waiting]);
      const [claimed] = await uow.transaction((tx) => tx.webhookDeliveries.claimDue(at(0), 1, at(30_000)));
      const ok = runDeliveryCommand(claimed!.delivery, { type: 'attempt', at: at(40), startedAt: at(0), outcome: { kind: 'response', statusCode: 200, durationMs: 3 }, policy: retryPolicy(1000) });
      await uow.transaction((tx) => tx.webhookDeliveries.saveAttempts([ok]));
      expect(await repos.webhookDeliveries.purgeFinishedBefore(at(40))).toBe(0);
      expect(await repos.webhookDeliveries.purgeFinishedBefore(at(41))).toBe(1);
      expect(await repos.webhookDeliveries.findInWebhook(company.id, hook.id, claimed!.delivery.id)).toBeNull();
      const other = claimed!.delivery.id === done.id ? waiting : done;
      expect((await repos.webhookDeliveries.findInWebhook(company.id, hook.id, other.id))?.status).toBe('pending');
    });
  });
}
