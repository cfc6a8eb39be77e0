import type { Router } from 'express';
import { inject, injectable } from 'inversify';
import {
  CreateWebhook,
  DeleteWebhook,
  ListWebhookDeliveries,
  ListWebhooks,
  NotFoundError,
  RedeliverWebhookDelivery,
  Repositories,
  TestWebhook,
  UpdateWebhook,
  ValidationError,
  type Repositories as Repos,
} from '@carteiro/core';
import { auth, requireScope } from '../http/auth.js';
import type { Controller } from '../http/controller.js';
import { ok, paged } from '../http/envelope.js';
import { validate } from '../http/validation.js';
import { createWebhookSchema, deliveryStatuses, updateWebhookSchema, type WebhookBody } from './webhooks.schemas.js';
import { createdWebhookView, deliveryView, testResultView, updatedWebhookView, webhookView } from './webhook-views.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id in a path that cannot exist answers 404, as a missing one does. */
function pathId(value: string | string[] | undefined, what: string): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw new NotFoundError(what);
  return value.toLowerCase();
}

/** The webhook routes of the specification plus the delivery log and redelivery (operations.md §4). */
@injectable()
export class WebhooksController implements Controller {
  constructor(
    @inject(CreateWebhook) private readonly create: CreateWebhook,
    @inject(ListWebhooks) private readonly list: ListWebhooks,
    @inject(UpdateWebhook) private readonly update: UpdateWebhook,
    @inject(DeleteWebhook) private readonly remove: DeleteWebhook,
    @inject(TestWebhook) private readonly test: TestWebhook,
    @inject(ListWebhookDeliveries) private readonly deliveries: ListWebhookDeliveries,
    @inject(RedeliverWebhookDelivery) private readonly redeliver: RedeliverWebhookDelivery,
    @inject(Repositories) private readonly repos: Repos,
  ) {}

  register(router: Router): void {
    const manage = requireScope('webhooks:manage');

    router.post('/webhooks', manage, async (req, res) => {
      const body = validate<WebhookBody>(createWebhookSchema, req.body ?? {});
      const webhook = await this.create.execute(auth(req).company.id, body);
      ok(res, createdWebhookView(webhook), 201);
    });

    router.get('/webhooks', manage, async (req, res) => {
      const page = await this.list.execute(auth(req).company.id, paged(req.query, 100));
      ok(res, { ...page, items: page.items.map(webhookView) });
    });

    router.get('/webhooks/:id', manage, async (req, res) => {
      const webhook = await this.repos.webhooks.findByIdInCompany(auth(req).company.id, pathId(req.params.id, 'Webhook'));
      if (!webhook) throw new NotFoundError('Webhook');
      ok(res, webhookView(webhook));
    });

    router.put('/webhooks/:id', manage, async (req, res) => {
      const body = validate<Partial<WebhookBody>>(updateWebhookSchema, req.body ?? {});
      const webhook = await this.update.execute(auth(req).company.id, pathId(req.params.id, 'Webhook'), body);
      ok(res, updatedWebhookView(webhook));
    });

    router.delete('/webhooks/:id', manage, async (req, res) => {
      const id = pathId(req.params.id, 'Webhook');
      await this.remove.execute(auth(req).company.id, id);
      ok(res, { deleted: true, id });
    });

    router.post('/webhooks/:id/test', manage, async (req, res) => {
      const result = await this.test.execute(auth(req).company.id, pathId(req.params.id, 'Webhook'));
      ok(res, testResultView(result));
    });

    router.get('/webhooks/:id/deliveries', manage, async (req, res) => {
      const status = req.query.status;
      if (status !== undefined && !(deliveryStatuses as readonly unknown[]).includes(status)) {
        throw new ValidationError(`status must be one of ${deliveryStatuses.join(', ')}`, { field: 'status', allowed: [...deliveryStatuses] });
      }
      const page = await this.deliveries.execute(
        auth(req).company.id,
        pathId(req.params.id, 'Webhook'),
        paged(req.query, 100),
        status as (typeof deliveryStatuses)[number] | undefined,
      );
      ok(res, { ...page, items: page.items.map(deliveryView) });
    });

    router.post('/webhooks/:id/deliveries/:deliveryId/redeliver', manage, async (req, res) => {
      const delivery = await this.redeliver.execute(
        auth(req).company.id,
        pathId(req.params.id, 'Webhook'),
        pathId(req.params.deliveryId, 'Webhook delivery'),
      );
      ok(res, deliveryView(delivery), 202);
    });
  }
}
