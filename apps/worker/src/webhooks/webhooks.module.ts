import { RetryPolicy, WebhookSender, retryPolicy } from '@carteiro/core';
import { AppConfig, type Config } from '@carteiro/system';
import { HttpWebhookSender } from '@carteiro/webhooks';
import { ContainerModule } from 'inversify';
import { BackgroundService } from '../jobs/job-handler.js';
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
});
