import { CampaignStatuses, PublicMessageStatuses } from '@carteiro/core';

const nullableString = { type: ['string', 'null'] };
const nullableStringArray = { type: ['array', 'null'], items: { type: 'string' } };

/**
 * Types of the POST /v1/campaigns body. Required fields and the specification's rules
 * (limits, exclusivity, formats) are checked by the core use case, which answers the
 * specification's codes (400 BAD_REQUEST for missing name or recipients, 'Maximum 10000
 * recipients', VALIDATION_ERROR for the rest).
 */
export const createCampaignSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: nullableString,
    title: nullableString,
    description: nullableString,
    setor_id: nullableString,
    setor_ids: nullableStringArray,
    distribution_mode: nullableString,
    multi_number: { type: ['boolean', 'null'] },
    team_id: nullableString,
    recipients: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          phone: nullableString,
          client_id: nullableString,
          name: nullableString,
          text: nullableString,
          media_url: nullableString,
          media_type: nullableString,
          variables: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
        },
      },
    },
    message: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        text: nullableString,
        variants: nullableStringArray,
        media_url: nullableString,
        media_type: nullableString,
        media_delivery: nullableString,
        media_filename: nullableString,
        template_name: nullableString,
        template_language: nullableString,
        template_components: { type: ['array', 'null'] },
        template_raw: { type: ['array', 'null'] },
        template_vars: nullableStringArray,
      },
    },
    options: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        schedule_at: nullableString,
        anti_ban_level: nullableString,
        distribution: nullableString,
        callback_url: nullableString,
      },
    },
  },
} as const;

export const retryCampaignSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    detailIds: { type: 'array', items: { type: 'string' }, maxItems: 10_000 },
    all_failures: { type: 'boolean' },
  },
} as const;

export const campaignListQuerySchema = {
  type: 'object',
  properties: { status: { enum: [...CampaignStatuses] } },
} as const;

export const messageListQuerySchema = {
  type: 'object',
  properties: { status: { enum: [...PublicMessageStatuses] }, q: { type: 'string', maxLength: 100 } },
} as const;
