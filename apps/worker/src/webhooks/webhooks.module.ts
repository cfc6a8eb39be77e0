import { Repositories, RetryPolicy, WebhookSender, retryPolicy } from '@carteiro/core';
import { AppConfig, type Config } from '@carteiro/system';
import { HttpWebhookSender } from '@carteiro/webhooks';
import { ContainerModule } from 'inversify';
import { Housekeeper } from '../housekeeping/housekeeping.job.js';
import { BackgroundService } from '../jobs/job-handler.js';

/** Finished deliveries (with their attempts) stay readable in the delivery log this long. */
export const WEBHOOK_DELIVERY_RETENTION_MS = 30 * 86_400_000;
import { WebhookDeliveryService, WebhookDispatcherOptions } from './webhook-delivery.service.js';

/** Webhook delivery: the HTTP sender, the retry policy of `WEBHOOK_RETRY_BASE_MS` and the delivery loop. */
export const webhooksModule = new ContainerModule(({ bind }) => {
  bind<WebhookSender>(WebhookSender)
    .toResolvedValue((config: Config) => new HttpWebhookSender({ allowPrivate: config.allowPrivateWebhooks }), [AppConfig])
    .inSingletonScope();
  bind<RetryPolicy>(RetryPolicy)
    .toResolvedValue((config: Config) => retryPolicy(config.webhookRetryBaseMs), [AppConfig])
    .inSingletonScope();
  bind(WebhookDispatcherOptions).toConstantValue({});
  bind(BackgroundService).to(WebhookDeliveryService).inSingletonScope();
  bind<(now: Date) => Promise<number>>(Housekeeper).toResolvedValue(
    (repos: Repositories) => (now: Date) => repos.webhookDeliveries.purgeFinishedBefore(new Date(now.getTime() - WEBHOOK_DELIVERY_RETENTION_MS)),
    [Repositories],
  );
});
