import {
  CreateWebhook,
  DeleteWebhook,
  EventNames,
  ListWebhookDeliveries,
  ListWebhooks,
  NotFoundError,
  RedeliverWebhookDelivery,
  Repositories,
  TestWebhook,
  UpdateWebhook,
} from '@carteiro/core';
import { defineRoute, idParam } from '../http/route.js';
import { pageOfCompany } from '../shared/page-of-company.js';
import { getById } from '../shared/get-by-id.js';
import { component, pageProperties, pageQuery, s, typed, type PageQuery } from '../http/schema.js';
import { createdWebhookView, deliveryView, testResultView, updatedWebhookView, webhookView } from './webhook-views.js';
import type { ServiceRepositories } from '@carteiro/postgres';

export const deliveryStatuses = ['pending', 'succeeded', 'failed'] as const;

const url = {
  type: 'string',
  minLength: 1,
  maxLength: 2048,
  format: 'uri',
  description: 'Absolute URL receiving the deliveries: https resolving to a public address (unless the operator allows private ones).',
  'x-error-reason': 'invalid_url',
};
const eventList = { type: 'array', minItems: 1, maxItems: EventNames.length, items: { type: 'string', enum: [...EventNames] } };

export interface WebhookBody {
  url: string;
  events: string[];
  active?: boolean;
}

/** POST /v1/webhooks: `url` and `events` required, `active` defaults to true. */
export const createWebhookSchema = typed<WebhookBody>({
  type: 'object',
  required: ['url', 'events'],
  additionalProperties: false,
  properties: { url, events: eventList, active: { type: 'boolean' } },
});

/** PUT /v1/webhooks/:id: every field optional. */
export const updateWebhookSchema = typed<Partial<WebhookBody>>({
  type: 'object',
  additionalProperties: false,
  properties: { url, events: eventList, active: { type: 'boolean' } },
});

const events = s.array(s.enum(EventNames));

const Webhook = component('Webhook', s.object({ id: s.uuid(), url: s.string(), events, active: s.boolean(), created_at: s.dateTime(), updated_at: s.dateTime() }));

const WebhookCreated = component(
  'WebhookCreated',
  s.object({
    id: s.uuid(),
    url: s.string(),
    events,
    secret: s.string({ pattern: '^[0-9a-f]{64}$', description: 'HMAC-SHA256 key of the signatures: shown only in this response.' }),
    active: s.boolean(),
    created_at: s.dateTime(),
  }),
);

const WebhookDelivery = component(
  'WebhookDelivery',
  s.object({
    id: s.uuid({ description: 'Also the `X-Webhook-Id` of every attempt.' }),
    webhook_id: s.uuid(),
    event: s.string(),
    event_id: s.nullableString(),
    status: s.enum(deliveryStatuses),
    attempt_count: s.integer({ minimum: 0 }),
    next_attempt_at: s.nullableDateTime(),
    last_status_code: s.nullableInteger(),
    last_error: s.nullableString(),
    created_at: s.dateTime(),
    updated_at: s.dateTime(),
    completed_at: s.nullableDateTime(),
    payload: { type: ['object', 'string'], additionalProperties: true, description: 'The body delivered: the event envelope (as text if it is not JSON).' },
    attempts: s.array(
      s.object({
        number: s.integer({ minimum: 1 }),
        started_at: s.dateTime(),
        duration_ms: s.integer({ minimum: 0 }),
        status_code: s.nullableInteger(),
        error: s.nullableString(),
        result: s.enum(['succeeded', 'retry', 'failed']),
      }),
    ),
  }),
);

const webhookId = { id: idParam('webhook', 'Webhook') };
const manage = { scope: 'webhooks:manage' } as const;

/** The webhook routes of the specification plus the delivery log and redelivery (operations.md §4); the events they deliver are in openapi/webhook-events.ts. */
export const webhooksRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/webhooks',
    auth: manage,
    operationId: 'createWebhook',
    summary: 'Register a webhook',
    description: 'The URL must be https and resolve to a public address. The `secret` signing the deliveries is returned only here.',
    tag: 'Webhooks',
    body: { schema: createWebhookSchema, example: { url: 'https://example.org/hooks/carteiro', events: ['message.sent', 'campaign.completed'] } },
    response: { status: 201, description: 'Registered.', data: WebhookCreated },
    async handler({ body, principal, use }) {
      return createdWebhookView(await use(CreateWebhook).execute(principal.company.id, body));
    },
  }),
  pageOfCompany({
    path: '/v1/webhooks',
    auth: manage,
    operationId: 'listWebhooks',
    summary: 'List webhooks',
    tag: 'Webhooks',
    query: pageQuery(100),
    response: { description: 'A page of webhooks (never their secrets).', item: Webhook },
    list: (use, companyId, query) => use(ListWebhooks).execute(companyId, query),
    view: webhookView,
  }),
  getById({
    path: '/v1/webhooks/:id', auth: manage, params: webhookId,
    operationId: 'getWebhook', summary: 'Read a webhook', tag: 'Webhooks',
    response: { description: 'The webhook.', data: Webhook },
    async read(use, companyId, id) {
      const webhook = await use<ServiceRepositories>(Repositories).webhooks.findByIdInCompany(companyId, id);
      if (!webhook) throw new NotFoundError('Webhook');
      return webhookView(webhook);
    },
  }),
  defineRoute({
    method: 'put',
    path: '/v1/webhooks/:id',
    auth: manage,
    operationId: 'updateWebhook',
    summary: 'Update a webhook',
    description: 'Every field optional.',
    tag: 'Webhooks',
    params: webhookId,
    body: { schema: updateWebhookSchema, example: { active: false } },
    response: {
      status: 200,
      description: 'The updated webhook.',
      data: s.object({ id: s.uuid(), url: s.string(), events, active: s.boolean(), updated_at: s.dateTime() }),
    },
    errors: ['NOT_FOUND'],
    async handler({ params, body, principal, use }) {
      return updatedWebhookView(await use(UpdateWebhook).execute(principal.company.id, params.id, body));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/webhooks/:id',
    auth: manage,
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    tag: 'Webhooks',
    params: webhookId,
    response: { status: 200, description: 'Deleted.', data: s.object({ deleted: s.boolean({ const: true }), id: s.uuid() }) },
    errors: ['NOT_FOUND'],
    async handler({ params, principal, use }) {
      await use(DeleteWebhook).execute(principal.company.id, params.id);
      return { deleted: true, id: params.id };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/webhooks/:id/test',
    auth: manage,
    operationId: 'testWebhook',
    summary: 'Send a test event',
    description: 'Sends one signed `webhook.test` event now (active or not), without retries; a receiver slower than 5 seconds counts as failed.',
    tag: 'Webhooks',
    params: webhookId,
    response: {
      status: 200,
      description: 'The outcome (a failed test is still a 200).',
      data: s.object({
        delivered: s.boolean({ description: 'True when the receiver answered 2xx within 5 seconds.' }),
        delivery_id: s.uuid({ description: '`X-Webhook-Id` of the test request.' }),
        status_code: s.nullableInteger(),
        duration_ms: s.integer({ minimum: 0 }),
        error: s.nullableString(),
        payload: s.ref('WebhookTestEvent'),
      }),
    },
    errors: ['NOT_FOUND'],
    async handler({ params, principal, use }) {
      return testResultView(await use(TestWebhook).execute(principal.company.id, params.id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/webhooks/:id/deliveries',
    auth: manage,
    operationId: 'listWebhookDeliveries',
    summary: 'List deliveries and their attempts',
    tag: 'Webhooks',
    params: webhookId,
    query: typed<PageQuery & { status?: (typeof deliveryStatuses)[number] }>({
      type: 'object',
      properties: { status: s.enum(deliveryStatuses, { description: 'Only deliveries in this status.' }), ...pageProperties(100) },
    }),
    response: { status: 200, description: 'A page of deliveries, newest first.', data: s.page(WebhookDelivery) },
    errors: ['NOT_FOUND'],
    async handler({ params, query, principal, use }) {
      const { status, page, limit } = query;
      const deliveries = await use(ListWebhookDeliveries).execute(principal.company.id, params.id, { page, limit }, status);
      return { ...deliveries, items: deliveries.items.map(deliveryView) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
    auth: manage,
    operationId: 'redeliverWebhookDelivery',
    summary: 'Redeliver a delivery',
    description: 'Queues the same body again with the same `X-Webhook-Id`.',
    tag: 'Webhooks',
    params: { ...webhookId, deliveryId: idParam('delivery', 'Webhook delivery') },
    response: { status: 202, description: 'Queued again.', data: WebhookDelivery },
    errors: ['NOT_FOUND', 'CONFLICT', 'INVALID_TRANSITION'],
    async handler({ params, principal, use }) {
      return deliveryView(await use(RedeliverWebhookDelivery).execute(principal.company.id, params.id, params.deliveryId));
    },
  }),
];
