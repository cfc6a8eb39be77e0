import { createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { createCompany } from '../companies/index.js';
import type { DomainEvent, EventName } from '../shared/domain-event.js';
import { DomainError, InvalidTransitionError, NotFoundError, ValidationError } from '../shared/errors.js';
import {
  FakeWebhookSender,
  FakeWebhookUrlPolicy,
  InMemoryUnitOfWork,
  InMemoryWebhookDeliveryRepository,
  ManualClock,
  SeededRandom,
  SequentialIds,
} from '../testing/index.js';
import { CreateWebhook } from './create-webhook.js';
import { DeliverWebhooks } from './deliver-webhooks.js';
import { FanOutEvents } from './fan-out-events.js';
import { DeleteWebhook, ListWebhooks, UpdateWebhook } from './manage-webhooks.js';
import { TestWebhook } from './test-webhook.js';
import { ListWebhookDeliveries, RedeliverWebhookDelivery } from './webhook-deliveries.js';
import { retryPolicy } from './webhook-delivery.js';

const companyId = '10000000-0000-4000-8000-000000000001';

describe('webhook use cases', () => {
  let uow: InMemoryUnitOfWork;
  let clock: ManualClock;
  let ids: SequentialIds;
  let sender: FakeWebhookSender;
  let create: CreateWebhook;
  let fanOut: FanOutEvents;
  let deliver: DeliverWebhooks;
  let deliveries: InMemoryWebhookDeliveryRepository;

  beforeEach(async () => {
    uow = new InMemoryUnitOfWork();
    clock = new ManualClock('2026-03-01T12:00:00.000Z');
    ids = new SequentialIds();
    sender = new FakeWebhookSender();
    create = new CreateWebhook(uow, ids, clock, new SeededRandom(7), new FakeWebhookUrlPolicy());
    fanOut = new FanOutEvents(uow, ids, clock);
    deliver = new DeliverWebhooks(uow, clock, sender, retryPolicy(1000));
    deliveries = uow.repos.webhookDeliveries as InMemoryWebhookDeliveryRepository;
    await uow.repos.companies.insert(createCompany(companyId, clock.now(), { name: 'Acme' }));
  });

  const record = (name: EventName, extra: Partial<DomainEvent> = {}) =>
    uow.transaction((repos) =>
      repos.events.record([
        { id: ids.newId(), event: name, companyId, setorId: null, occurredAt: clock.now(), data: { campaignId: 'k1' }, actor: { user_id: null, source: 'system' }, ...extra },
      ]),
    );

  /** Everything a worker does until nothing is due now. */
  const work = async () => {
    await fanOut.execute({ limit: 100 });
    for (;;) {
      const claimed = await deliver.claim(100, 60_000);
      if (claimed.length === 0) return;
      await deliver.save(await Promise.all(claimed.map((c) => deliver.attempt(c))));
    }
  };

  it('given a registration, then it gets a 64-hex secret and rejects bad urls and unknown events', async () => {
    const webhook = await create.execute(companyId, { url: 'https://example.com/hook', events: ['message.sent', 'message.sent'] });
    expect(webhook.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(webhook.events).toEqual(['message.sent']);
    expect(webhook.active).toBe(true);
    await expect(create.execute(companyId, { url: 'http://example.com', events: ['message.sent'] })).rejects.toThrow(ValidationError);
    await expect(create.execute(companyId, { url: 'https://127.0.0.1/x', events: ['message.sent'] })).rejects.toThrow(ValidationError);
    const unknown = create.execute(companyId, { url: 'https://example.com', events: ['message.sent', 'nope.event'] });
    await expect(unknown).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'events', unknown: ['nope.event'] } });
    await expect(create.execute(companyId, { url: 'https://example.com', events: [] })).rejects.toThrow(ValidationError);
  });

  it('updates, lists and deletes a webhook of the company only', async () => {
    const webhook = await create.execute(companyId, { url: 'https://example.com/a', events: ['message.sent'] });
    clock.advance(1000);
    const update = new UpdateWebhook(uow, clock, new FakeWebhookUrlPolicy());
    const changed = await update.execute(companyId, webhook.id, { active: false, events: ['campaign.completed'] });
    expect(changed).toMatchObject({ url: 'https://example.com/a', active: false, events: ['campaign.completed'], updatedAt: clock.now() });
    await expect(update.execute(companyId, webhook.id, { url: 'https://localhost/x' })).rejects.toThrow(ValidationError);
    await expect(update.execute('other', webhook.id, { active: true })).rejects.toThrow(NotFoundError);
    expect((await new ListWebhooks(uow.repos).execute(companyId, { page: 1, limit: 10 })).total).toBe(1);
    await new DeleteWebhook(uow).execute(companyId, webhook.id);
    await expect(new DeleteWebhook(uow).execute(companyId, webhook.id)).rejects.toThrow(NotFoundError);
  });

  it('given subscriptions, when events occur, then each subscribed active webhook gets one delivery and others none', async () => {
    const sent = await create.execute(companyId, { url: 'https://a.example.com/', events: ['message.sent'] });
    const both = await create.execute(companyId, { url: 'https://b.example.com/', events: ['message.sent', 'campaign.completed'] });
    await create.execute(companyId, { url: 'https://c.example.com/', events: ['message.sent'], active: false });
    await record('message.sent');
    await record('campaign.completed', { callbackUrl: 'https://cb.example.com/done' });
    await record('message.failed');
    const result = await fanOut.execute({ limit: 100 });
    expect(result.events).toBe(3);
    const all = deliveries.all();
    expect(all.map((d) => [d.event, d.webhookId ?? d.callbackUrl]).sort()).toEqual(
      [
        ['campaign.completed', both.id],
        ['campaign.completed', 'https://cb.example.com/done'],
        ['message.sent', both.id],
        ['message.sent', sent.id],
      ].sort(),
    );
    expect(await fanOut.execute({ limit: 100 })).toEqual({ events: 0, deliveries: [] });
  });

  it('given a delivery, then its headers carry a stable id and a signature that an independent HMAC verifies', async () => {
    const webhook = await create.execute(companyId, { url: 'https://a.example.com/', events: ['message.sent'] });
    sender.answer(webhook.url, 503, 503, 200);
    await record('message.sent');
    await work();
    clock.advance(1000);
    await work();
    clock.advance(4000);
    await work();
    expect(sender.requests).toHaveLength(3);
    const deliveryIds = new Set(sender.requests.map((r) => r.headers['x-webhook-id']));
    expect(deliveryIds.size).toBe(1);
    expect(sender.requests.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    for (const request of sender.requests) {
      const timestamp = request.headers['x-webhook-timestamp'];
      const expected = createHmac('sha256', webhook.secret).update(`${timestamp}.${request.body}`).digest('hex');
      expect(request.headers['x-webhook-signature']).toBe(expected);
      expect(request.timeoutMs).toBe(5000);
    }
    expect(sender.requests[1]?.headers['x-webhook-timestamp']).toBe(String(Math.floor(Date.parse('2026-03-01T12:00:01.000Z') / 1000)));
    const [delivery] = deliveries.all();
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3 });
    expect(delivery?.attemptLog.map((a) => a.statusCode)).toEqual([503, 503, 200]);
  });

  it('given a receiver answering 500, then five attempts are made on the policy schedule and the webhook stays registered', async () => {
    const webhook = await create.execute(companyId, { url: 'https://a.example.com/', events: ['message.sent'] });
    sender.answer(webhook.url, 500);
    await record('message.sent');
    const schedule = [0, 1000, 4000, 16_000, 64_000, 1_000_000];
    for (const step of schedule) {
      clock.advance(step);
      await work();
    }
    expect(sender.requests).toHaveLength(5);
    expect(deliveries.all()[0]).toMatchObject({ status: 'failed', attempts: 5 });
    expect(await uow.repos.webhooks.findByIdInCompany(companyId, webhook.id)).toMatchObject({ active: true });
    expect(await deliver.nextWakeUp()).toBeNull();
  });

  it('given a receiver answering 400, then one attempt only', async () => {
    const webhook = await create.execute(companyId, { url: 'https://a.example.com/', events: ['message.sent'] });
    sender.answer(webhook.url, 400);
    await record('message.sent');
    for (const step of [0, 1000, 100_000]) {
      clock.advance(step);
      await work();
    }
    expect(sender.requests).toHaveLength(1);
    expect(deliveries.all()[0]).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 400 });
  });

  it('sends a callback_url delivery unsigned, and abandons deliveries of a deactivated webhook', async () => {
    const webhook = await create.execute(companyId, { url: 'https://a.example.com/', events: ['campaign.completed'] });
    await record('campaign.completed', { callbackUrl: 'https://cb.example.com/done' });
    await fanOut.execute({ limit: 10 });
    await new UpdateWebhook(uow, clock, new FakeWebhookUrlPolicy()).execute(companyId, webhook.id, { active: false });
    await work();
    expect(sender.requests.map((r) => r.url)).toEqual(['https://cb.example.com/done']);
    expect(sender.requests[0]?.headers['x-webhook-signature']).toBeUndefined();
    expect(sender.requests[0]?.headers['x-webhook-id']).toMatch(/^0000/);
    const toHook = deliveries.all().find((d) => d.webhookId === webhook.id);
    expect(toHook).toMatchObject({ status: 'failed', lastError: 'webhook is inactive', attempts: 0 });
  });

  it('lists the delivery log and redelivers a finished delivery with the same id', async () => {
    const webhook = await create.execute(companyId, { url: 'https://a.example.com/', events: ['message.sent'] });
    sender.answer(webhook.url, 410, 200);
    await record('message.sent');
    await work();
    const log = await new ListWebhookDeliveries(uow.repos).execute(companyId, webhook.id, { page: 1, limit: 10 });
    expect(log.items[0]).toMatchObject({ status: 'failed', attemptLog: [{ number: 1, statusCode: 410, result: 'failed' }] });
    const redeliverUseCase = new RedeliverWebhookDelivery(uow, clock);
    const id = log.items[0]!.id;
    expect(await redeliverUseCase.execute(companyId, webhook.id, id)).toMatchObject({ status: 'pending', id });
    await expect(redeliverUseCase.execute(companyId, webhook.id, id)).rejects.toThrow(InvalidTransitionError);
    await work();
    expect(sender.requests.map((r) => r.headers['x-webhook-id'])).toEqual([id, id]);
    expect(deliveries.all()[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    await expect(redeliverUseCase.execute(companyId, webhook.id, 'missing')).rejects.toThrow(NotFoundError);
    await expect(new ListWebhookDeliveries(uow.repos).execute('other', webhook.id, { page: 1, limit: 10 })).rejects.toThrow(NotFoundError);
  });

  it('tests a webhook with one signed webhook.test request and reports the outcome', async () => {
    const webhook = await create.execute(companyId, { url: 'https://a.example.com/', events: ['message.sent'] });
    const test = new TestWebhook(uow.repos, ids, clock, sender);
    const ok = await test.execute(companyId, webhook.id);
    expect(ok).toMatchObject({ delivered: true, statusCode: 200, error: null, payload: { event: 'webhook.test', version: 'v1', empresa_id: companyId } });
    const request = sender.requests[0]!;
    expect(request.headers['x-webhook-signature']).toBe(
      createHmac('sha256', webhook.secret).update(`${request.headers['x-webhook-timestamp']}.${request.body}`).digest('hex'),
    );
    sender.script(webhook.url, { kind: 'timeout', durationMs: 5000 });
    expect(await test.execute(companyId, webhook.id)).toMatchObject({ delivered: false, statusCode: null, error: 'timeout: no answer within 5 seconds' });
    expect(deliveries.all()).toHaveLength(0);
    await expect(test.execute('other', webhook.id)).rejects.toBeInstanceOf(DomainError);
  });
});
