import { EventNames } from '@carteiro/core';
import { createWebhookSchema, deliveryStatuses, updateWebhookSchema } from '../../webhooks/webhooks.schemas.js';
import { type ApiOperation, idParam, pageParams, s } from '../operation.js';

const events = s.array(s.enum(EventNames));

export const Webhook = s.object({ id: s.uuid(), url: s.string(), events, active: s.boolean(), created_at: s.dateTime(), updated_at: s.dateTime() });

export const WebhookCreated = s.object({
  id: s.uuid(),
  url: s.string(),
  events,
  secret: s.string({ pattern: '^[0-9a-f]{64}$', description: 'HMAC-SHA256 key of the signatures: shown only in this response.' }),
  active: s.boolean(),
  created_at: s.dateTime(),
});

export const WebhookDelivery = s.object({
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
});

const webhookId = { id: idParam('webhook') };
const manage = { scope: 'webhooks:manage' } as const;

/** The webhook routes (webhooks.controller.ts); the events they deliver are in webhook-events.ts. */
export const webhooksOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/v1/webhooks',
    operationId: 'createWebhook',
    summary: 'Register a webhook',
    description: 'The URL must be https and resolve to a public address. The `secret` signing the deliveries is returned only here.',
    tag: 'Webhooks',
    auth: manage,
    body: { schema: createWebhookSchema, example: { url: 'https://example.org/hooks/carteiro', events: ['message.sent', 'campaign.completed'] } },
    success: { status: 201, description: 'Registered.', data: s.ref('WebhookCreated') },
  },
  {
    method: 'get',
    path: '/v1/webhooks',
    operationId: 'listWebhooks',
    summary: 'List webhooks',
    tag: 'Webhooks',
    auth: manage,
    query: { extra: pageParams(100) },
    success: { status: 200, description: 'A page of webhooks (never their secrets).', data: s.page(s.ref('Webhook')) },
  },
  {
    method: 'get',
    path: '/v1/webhooks/:id',
    operationId: 'getWebhook',
    summary: 'Read a webhook',
    tag: 'Webhooks',
    auth: manage,
    pathParams: webhookId,
    success: { status: 200, description: 'The webhook.', data: s.ref('Webhook') },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'put',
    path: '/v1/webhooks/:id',
    operationId: 'updateWebhook',
    summary: 'Update a webhook',
    description: 'Every field optional.',
    tag: 'Webhooks',
    auth: manage,
    pathParams: webhookId,
    body: { schema: updateWebhookSchema, example: { active: false } },
    success: {
      status: 200,
      description: 'The updated webhook.',
      data: s.object({ id: s.uuid(), url: s.string(), events, active: s.boolean(), updated_at: s.dateTime() }),
    },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'delete',
    path: '/v1/webhooks/:id',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    tag: 'Webhooks',
    auth: manage,
    pathParams: webhookId,
    success: { status: 200, description: 'Deleted.', data: s.object({ deleted: s.boolean({ const: true }), id: s.uuid() }) },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/v1/webhooks/:id/test',
    operationId: 'testWebhook',
    summary: 'Send a test event',
    description: 'Sends one signed `webhook.test` event now (active or not), without retries; a receiver slower than 5 seconds counts as failed.',
    tag: 'Webhooks',
    auth: manage,
    pathParams: webhookId,
    success: {
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
  },
  {
    method: 'get',
    path: '/v1/webhooks/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'List deliveries and their attempts',
    tag: 'Webhooks',
    auth: manage,
    pathParams: webhookId,
    query: { extra: { status: { schema: s.enum(deliveryStatuses), description: 'Only deliveries in this status.' }, ...pageParams(100) } },
    success: { status: 200, description: 'A page of deliveries, newest first.', data: s.page(s.ref('WebhookDelivery')) },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
    operationId: 'redeliverWebhookDelivery',
    summary: 'Redeliver a delivery',
    description: 'Queues the same body again with the same `X-Webhook-Id`.',
    tag: 'Webhooks',
    auth: manage,
    pathParams: { ...webhookId, deliveryId: idParam('delivery') },
    success: { status: 202, description: 'Queued again.', data: s.ref('WebhookDelivery') },
    errors: ['NOT_FOUND', 'CONFLICT', 'INVALID_TRANSITION'],
  },
];

export const webhooksSchemas = { Webhook, WebhookCreated, WebhookDelivery };
