import { Scopes } from '@carteiro/core';

const hour = { type: 'integer', minimum: 0, maximum: 24 };
const nonNegativeIntOrNull = { type: ['integer', 'null'], minimum: 0 };

const companySettings = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  plan_code: { type: 'string', minLength: 1, maxLength: 50 },
  modality: { enum: ['mensal', 'avulso', 'inativo'] },
  expires_at: { type: ['string', 'null'], format: 'date-time' },
  avulso_balance: { type: 'integer', minimum: 0 },
  unlimited: { type: 'boolean' },
  bulk_messaging_enabled: { type: 'boolean' },
  multi_number_enabled: { type: 'boolean' },
  daily_limit: nonNegativeIntOrNull,
  concurrent_campaigns_limit: nonNegativeIntOrNull,
  company_rpm: { type: ['integer', 'null'], minimum: 1 },
  safe_hours: {
    type: 'object',
    required: ['start', 'end'],
    additionalProperties: false,
    properties: { start: hour, end: hour },
  },
  timezone: { type: 'string', minLength: 1, maxLength: 64 },
} as const;

export interface CompanyBody {
  name?: string;
  plan_code?: string;
  modality?: 'mensal' | 'avulso' | 'inativo';
  expires_at?: string | null;
  avulso_balance?: number;
  unlimited?: boolean;
  bulk_messaging_enabled?: boolean;
  multi_number_enabled?: boolean;
  daily_limit?: number | null;
  concurrent_campaigns_limit?: number | null;
  company_rpm?: number | null;
  safe_hours?: { start: number; end: number };
  timezone?: string;
}

export const createCompanySchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: companySettings,
};

export const updateCompanySchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: companySettings,
};

export const createApiKeySchema = {
  type: 'object',
  required: ['name', 'scopes', 'mode'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: ['*', ...Scopes] } },
    mode: { enum: ['live', 'test'] },
    rpm: { type: 'integer', minimum: 1, maximum: 100_000 },
  },
};
export interface CreateApiKeyBody {
  name: string;
  scopes: string[];
  mode: 'live' | 'test';
  rpm?: number;
}

export const rotateApiKeySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { grace_seconds: { type: 'integer', minimum: 0, maximum: 30 * 86_400 } },
};

export const createSetorSchema = {
  type: 'object',
  required: ['nome'],
  additionalProperties: false,
  properties: {
    nome: { type: 'string', minLength: 1, maxLength: 200 },
    channel_type: { enum: ['qr', 'official'] },
    official: {
      type: 'object',
      required: ['phone_number_id', 'access_token', 'waba_id'],
      additionalProperties: false,
      properties: {
        phone_number_id: { type: 'string', minLength: 1 },
        access_token: { type: 'string', minLength: 1 },
        waba_id: { type: 'string', minLength: 1 },
      },
    },
  },
};
export interface CreateSetorBody {
  nome: string;
  channel_type?: 'qr' | 'official';
  official?: { phone_number_id: string; access_token: string; waba_id: string };
}

export const updateSetorSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    nome: { type: 'string', minLength: 1, maxLength: 200 },
    warming_daily_limit: nonNegativeIntOrNull,
  },
};

export const createTeamSchema = {
  type: 'object',
  required: ['nome'],
  additionalProperties: false,
  properties: {
    nome: { type: 'string', minLength: 1, maxLength: 200 },
    setor_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, uniqueItems: true },
  },
};

export const uuidParam = { type: 'string', format: 'uuid' };
