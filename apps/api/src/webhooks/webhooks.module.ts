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
import { ContainerModule } from 'inversify';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';

/** The use cases of webhook registration, the test endpoint, the delivery log and redelivery (routes: webhooks.routes.ts). */
export const webhooksModule = new ContainerModule(({ bind }) => {
  bind(CreateWebhook)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock, random: Random, policy: WebhookUrlPolicy) => new CreateWebhook(uow, ids, clock, random, policy),
      [UnitOfWork, IdGenerator, Clock, Random, WebhookUrlPolicy],
    )
    .inSingletonScope();
  bind(ListWebhooks)
    .toResolvedValue((repos: ServiceRepositories) => new ListWebhooks(repos), [Repositories])
    .inSingletonScope();
  bind(UpdateWebhook)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, policy: WebhookUrlPolicy) => new UpdateWebhook(uow, clock, policy), [UnitOfWork, Clock, WebhookUrlPolicy])
    .inSingletonScope();
  bind(DeleteWebhook)
    .toResolvedValue((uow: ServiceUnitOfWork) => new DeleteWebhook(uow), [UnitOfWork])
    .inSingletonScope();
  bind(TestWebhook)
    .toResolvedValue(
      (repos: ServiceRepositories, ids: IdGenerator, clock: Clock, sender: WebhookSender) => new TestWebhook(repos, ids, clock, sender),
      [Repositories, IdGenerator, Clock, WebhookSender],
    )
    .inSingletonScope();
  bind(ListWebhookDeliveries)
    .toResolvedValue((repos: ServiceRepositories) => new ListWebhookDeliveries(repos), [Repositories])
    .inSingletonScope();
  bind(RedeliverWebhookDelivery)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock) => new RedeliverWebhookDelivery(uow, clock), [UnitOfWork, Clock])
    .inSingletonScope();
});
