import { WebhookSender, WebhookUrlPolicy } from '@carteiro/core';
import { ContainerModule } from 'inversify';
import { HttpWebhookSender, type HttpWebhookSenderOptions } from './http-webhook-sender.js';
import { WebhookUrlSafety } from './url-safety.js';

/**
 * Binds the webhook adapters: `WebhookUrlPolicy` (URL safety) and `WebhookSender` (signed HTTP
 * delivery). Their options are the composition root's choice: the API sends only test deliveries
 * (few sockets per host), the worker's dispatcher fans out.
 */
export function webhooksAdaptersModule(options: HttpWebhookSenderOptions): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<WebhookUrlPolicy>(WebhookUrlPolicy).toConstantValue(new WebhookUrlSafety({ allowPrivate: options.allowPrivate }));
    bind<WebhookSender>(WebhookSender).toConstantValue(new HttpWebhookSender(options));
  });
}
