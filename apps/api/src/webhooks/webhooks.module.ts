import {
  Clock,
  CreateWebhook,
  DeleteWebhook,
  IdGenerator,
  ListWebhookDeliveries,
  ListWebhooks,
  Random,
  RedeliverWebhookDelivery,
  Repositories,
  TestWebhook,
  UnitOfWork,
  UpdateWebhook,
  WebhookSender,
  WebhookUrlPolicy,
} from '@carteiro/core';
import { AppConfig, type Config } from '@carteiro/system';
import { HttpWebhookSender, WebhookUrlSafety } from '@carteiro/webhooks';
import { ContainerModule } from 'inversify';

/** The use cases of webhook registration, the test endpoint, the delivery log and redelivery (routes: webhooks.routes.ts). */
export const webhooksModule = new ContainerModule(({ bind }) => {
  bind<WebhookUrlPolicy>(WebhookUrlPolicy)
    .toResolvedValue((config: Config) => new WebhookUrlSafety({ allowPrivate: config.allowPrivateWebhooks }), [AppConfig])
    .inSingletonScope();
  bind<WebhookSender>(WebhookSender)
    .toResolvedValue((config: Config) => new HttpWebhookSender({ allowPrivate: config.allowPrivateWebhooks, maxSocketsPerHost: 8 }), [AppConfig])
    .inSingletonScope();
  bind(CreateWebhook)
    .toResolvedValue(
      (uow: UnitOfWork, ids: IdGenerator, clock: Clock, random: Random, policy: WebhookUrlPolicy) => new CreateWebhook(uow, ids, clock, random, policy),
      [UnitOfWork, IdGenerator, Clock, Random, WebhookUrlPolicy],
    )
    .inSingletonScope();
  bind(ListWebhooks)
    .toResolvedValue((repos: Repositories) => new ListWebhooks(repos), [Repositories])
    .inSingletonScope();
  bind(UpdateWebhook)
    .toResolvedValue((uow: UnitOfWork, clock: Clock, policy: WebhookUrlPolicy) => new UpdateWebhook(uow, clock, policy), [UnitOfWork, Clock, WebhookUrlPolicy])
    .inSingletonScope();
  bind(DeleteWebhook)
    .toResolvedValue((uow: UnitOfWork) => new DeleteWebhook(uow), [UnitOfWork])
    .inSingletonScope();
  bind(TestWebhook)
    .toResolvedValue(
      (repos: Repositories, ids: IdGenerator, clock: Clock, sender: WebhookSender) => new TestWebhook(repos, ids, clock, sender),
      [Repositories, IdGenerator, Clock, WebhookSender],
    )
    .inSingletonScope();
  bind(ListWebhookDeliveries)
    .toResolvedValue((repos: Repositories) => new ListWebhookDeliveries(repos), [Repositories])
    .inSingletonScope();
  bind(RedeliverWebhookDelivery)
    .toResolvedValue((uow: UnitOfWork, clock: Clock) => new RedeliverWebhookDelivery(uow, clock), [UnitOfWork, Clock])
    .inSingletonScope();
});
