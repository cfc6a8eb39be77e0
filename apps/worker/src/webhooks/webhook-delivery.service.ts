import { inject, injectable, optional } from 'inversify';
import { Metrics, type ProcessMetrics } from '@carteiro/metrics';
import type { Kysely } from 'kysely';
import { Clock, DeliverWebhooks, FanOutEvents, IdGenerator, RetryPolicy, UnitOfWork, WebhookSender, type ClaimedDelivery, type DeliveryUpdate } from '@carteiro/core';
import { connectionStringOf, Db, PgNotificationListener, WEBHOOKS_NOTIFY_CHANNEL, type Database, type ServiceUnitOfWork } from '@carteiro/postgres';
import { WebhookDispatcher, type DispatcherOptions } from '@carteiro/webhooks';
import type { BackgroundService } from '../jobs/job-handler.js';
import { Logger } from '../tokens.js';

/** Tuning of the delivery loop; tests and the benchmark rebind it. */
export const WebhookDispatcherOptions = Symbol.for('carteiro.worker.WebhookDispatcherOptions');

/**
 * The worker's webhook delivery loop: fans out outbox events into deliveries and makes their
 * attempts, woken by NOTIFY on `carteiro_webhooks` (at commit of every outbox insert), with
 * polling as the fallback. Runs in every worker process; they share the work through row leases.
 */
@injectable()
export class WebhookDeliveryService implements BackgroundService {
  readonly name = 'webhook-delivery';
  private readonly dispatcher: WebhookDispatcher;

  constructor(
    @inject(UnitOfWork) uow: ServiceUnitOfWork,
    @inject(IdGenerator) ids: IdGenerator,
    @inject(Clock) clock: Clock,
    @inject(WebhookSender) sender: WebhookSender,
    @inject(RetryPolicy) policy: RetryPolicy,
    @inject(Db) db: Kysely<Database>,
    @inject(Logger) logger: Logger,
    @inject(WebhookDispatcherOptions) options: Partial<DispatcherOptions>,
    @inject(Metrics) @optional() metrics?: ProcessMetrics,
  ) {
    const url = connectionStringOf(db);
    const onError = (error: unknown) => logger.warn({ err: error }, 'webhook LISTEN connection lost; polling until it is back');
    this.dispatcher = new WebhookDispatcher(
      new FanOutEvents(uow, ids, clock),
      metrics ? new ObservedDeliverWebhooks(uow, clock, sender, policy, metrics) : new DeliverWebhooks(uow, clock, sender, policy),
      url ? new PgNotificationListener(url, WEBHOOKS_NOTIFY_CHANNEL, { onError }) : null,
      options,
      { error: (message, error) => logger.error({ err: error }, message) },
    );
  }

  start(): Promise<void> {
    return this.dispatcher.start();
  }

  stop(): Promise<void> {
    return this.dispatcher.stop();
  }
}

/** Delivery attempts counted by result, and the lag of successful ones, as each attempt ends (in memory). */
class ObservedDeliverWebhooks extends DeliverWebhooks {
  constructor(uow: ServiceUnitOfWork, private readonly time: Clock, sender: WebhookSender, policy: RetryPolicy, private readonly metrics: ProcessMetrics) {
    super(uow, time, sender, policy);
  }

  override async attempt(claimed: ClaimedDelivery): Promise<DeliveryUpdate> {
    const update = await super.attempt(claimed);
    this.metrics.webhookAttempt(update, this.time.now());
    return update;
  }
}
