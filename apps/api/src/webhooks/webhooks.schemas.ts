import { EventNames } from '@carteiro/core';
import type { SchemaObject } from 'ajv';

const url = { type: 'string', minLength: 1, maxLength: 2048 };
const events = { type: 'array', minItems: 1, maxItems: EventNames.length, items: { type: 'string', enum: [...EventNames] } };

/** POST /v1/webhooks: `url` and `events` required, `active` defaults to true. */
export const createWebhookSchema: SchemaObject = {
  type: 'object',
  required: ['url', 'events'],
  additionalProperties: false,
  properties: { url, events, active: { type: 'boolean' } },
};

/** PUT /v1/webhooks/:id: every field optional. */
export const updateWebhookSchema: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: { url, events, active: { type: 'boolean' } },
};

export interface WebhookBody {
  url: string;
  events: string[];
  active?: boolean;
}

export const deliveryStatuses = ['pending', 'succeeded', 'failed'] as const;
