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
import { bindSingleton } from '@carteiro/system';

/** The use cases of webhook registration, the test endpoint, the delivery log and redelivery (routes: webhooks.routes.ts). */
export const webhooksModule = new ContainerModule(({ bind }) => {
  bindSingleton(bind, CreateWebhook, [UnitOfWork, IdGenerator, Clock, Random, WebhookUrlPolicy]);
  bindSingleton(bind, ListWebhooks, [Repositories]);
  bindSingleton(bind, UpdateWebhook, [UnitOfWork, Clock, WebhookUrlPolicy]);
  bindSingleton(bind, DeleteWebhook, [UnitOfWork]);
  bindSingleton(bind, TestWebhook, [Repositories, IdGenerator, Clock, WebhookSender]);
  bindSingleton(bind, ListWebhookDeliveries, [Repositories]);
  bindSingleton(bind, RedeliverWebhookDelivery, [UnitOfWork, Clock]);
});
