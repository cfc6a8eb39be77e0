import { Repositories, RetryPolicy, retryPolicy } from '@carteiro/core';
import { AppConfig, type Config } from '@carteiro/system';
import { ContainerModule } from 'inversify';
import { Housekeeper } from '../housekeeping/housekeeping.job.js';
import { BackgroundService } from '../jobs/job-handler.js';

/** Finished deliveries (with their attempts) stay readable in the delivery log this long. */
export const WEBHOOK_DELIVERY_RETENTION_MS = 30 * 86_400_000;
import { WebhookDeliveryService, WebhookDispatcherOptions } from './webhook-delivery.service.js';
import type { ServiceRepositories } from '@carteiro/postgres';

/** Webhook delivery (the sender is bound by the composition root): the retry policy of `WEBHOOK_RETRY_BASE_MS` and the delivery loop. */
export const webhooksModule = new ContainerModule(({ bind }) => {
  bind<RetryPolicy>(RetryPolicy)
    .toResolvedValue((config: Config) => retryPolicy(config.webhookRetryBaseMs), [AppConfig])
    .inSingletonScope();
  bind(WebhookDispatcherOptions).toConstantValue({});
  bind(BackgroundService).to(WebhookDeliveryService).inSingletonScope();
  bind<(now: Date) => Promise<number>>(Housekeeper).toResolvedValue(
    (repos: ServiceRepositories) => (now: Date) => repos.webhookDeliveries.purgeFinishedBefore(new Date(now.getTime() - WEBHOOK_DELIVERY_RETENTION_MS)),
    [Repositories],
  );
});
