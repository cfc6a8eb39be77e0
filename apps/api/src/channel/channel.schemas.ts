import type { SchemaObject } from 'ajv';
import { PROFILE_BATCH_MAX } from '@carteiro/core';

const uuid = { type: 'string', format: 'uuid' };
const httpsUrl = { type: 'string', minLength: 9, maxLength: 2048, pattern: '^https://' };
const phone = { type: 'string', minLength: 8, maxLength: 32, pattern: '^[+0-9 ()-]+$' };

/** POST /v1/channel/instances. */
export const createInstanceSchema: SchemaObject = {
  type: 'object',
  required: ['setor_id'],
  additionalProperties: false,
  properties: { setor_id: uuid },
};

/** GET /v1/channel/instances/health: query strings, validated before conversion. */
export const healthQuerySchema: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    include_history: { type: 'string', enum: ['true', 'false', '1', '0'] },
    history_minutes: { type: 'string', pattern: '^[0-9]{1,4}$' },
  },
};

const target = {
  setor_id: uuid,
  phone_number: phone,
};

/** POST /v1/channel/instances/profile/batch: up to 20 numbers, each by box or phone, with name and/or photo. */
export const profileBatchSchema: SchemaObject = {
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: {
    items: {
      type: 'array',
      minItems: 1,
      maxItems: PROFILE_BATCH_MAX,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: { ...target, name: { type: 'string', minLength: 1, maxLength: 25 }, picture_url: httpsUrl },
        oneOf: [{ required: ['setor_id'] }, { required: ['phone_number'] }],
        anyOf: [{ required: ['name'] }, { required: ['picture_url'] }],
      },
    },
  },
};

/** POST /v1/channel/instances/profile-picture/batch (legacy): photos only. */
export const pictureBatchSchema: SchemaObject = {
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: {
    items: {
      type: 'array',
      minItems: 1,
      maxItems: PROFILE_BATCH_MAX,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['picture_url'],
        properties: { ...target, picture_url: httpsUrl },
        oneOf: [{ required: ['setor_id'] }, { required: ['phone_number'] }],
      },
    },
  },
};

export interface ProfileBatchBody {
  items: { setor_id?: string; phone_number?: string; name?: string; picture_url?: string }[];
}

/** GET /admin/v1/simulator/messages. */
export const simulatorMessagesQuerySchema: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    to: phone,
    setor_id: uuid,
    company_id: uuid,
    limit: { type: 'string', pattern: '^[0-9]{1,4}$' },
  },
};
