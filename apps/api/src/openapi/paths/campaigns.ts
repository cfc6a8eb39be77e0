import { AntiBanLevels, CampaignStatuses, PublicMessageStatuses, SendFailureGroups } from '@carteiro/core';
import { campaignListQuerySchema, createCampaignSchema, messageListQuerySchema, retryCampaignSchema } from '../../campaigns/campaigns.schemas.js';
import { type ApiOperation, idParam, pageParams, s } from '../operation.js';

const failureCodes = Object.values(SendFailureGroups).flat();
const campaignStatus = s.enum(CampaignStatuses, { description: 'pendente (queued), processando, pausado, concluido or falha.' });
const messageStatus = s.enum(PublicMessageStatuses);
const executionMode = s.enum(['immediate', 'scheduled', 'deferred_to_safe_window']);
const distributionMode = s.enum(['single', 'multi_number']);

/** The 202 answer of POST /v1/campaigns. */
export const CampaignCreated = s.object({
  id: s.uuid(),
  status: s.enum(['queued'], { description: "Equals 'pendente' in reads." }),
  total_recipients: s.integer({ minimum: 1, maximum: 10_000 }),
  credits_reserved: s.integer({ minimum: 0 }),
  created_at: s.dateTime(),
  execution_mode: executionMode,
  scheduled_for: s.nullableDateTime(),
  waiting_reason: s.nullableString({ description: "'outside_safe_hours' when deferred to the next safe window." }),
  distribution_mode: distributionMode,
  number_pool_size: s.integer({ minimum: 1 }),
});

const listItemProperties = {
  id: s.uuid(),
  name: s.string(),
  mensagem: s.nullableString({ description: 'Base text of the message.' }),
  total_destinatarios: s.integer(),
  total_enviados: s.integer(),
  total_falhas: s.integer(),
  total_pulados: s.integer(),
  status: campaignStatus,
  created_at: s.dateTime(),
};

export const CampaignListItem = s.object(listItemProperties);

export const CampaignDetail = s.object({
  ...listItemProperties,
  imagem_url: s.nullableString(),
  progress: s.integer({ minimum: 0, maximum: 100, description: '(enviados + falhas + pulados) / total × 100.' }),
  updated_at: s.dateTime(),
  title: s.nullableString(),
  description: s.nullableString(),
  status_en: s.string({ description: "The status in English (queued, processing, paused, completed, failed)." }),
  execution_mode: executionMode,
  scheduled_for: s.nullableDateTime(),
  waiting_reason: s.nullableString(),
  distribution_mode: distributionMode,
  distribution: s.string({ description: 'How recipients are spread over the pool.' }),
  number_pool_size: s.integer(),
  setor_ids: s.array(s.uuid()),
  anti_ban_level: s.enum(AntiBanLevels),
  credits_reserved: s.integer(),
  cancelled_by_user: s.boolean(),
  error: s.nullableString({ description: 'Why the campaign failed (status falha).' }),
  started_at: s.nullableDateTime(),
  finished_at: s.nullableDateTime(),
});

export const CampaignMessageDetail = s.object({
  id: s.uuid(),
  status: messageStatus,
  erro: s.nullableString({ description: 'Raw error text.' }),
  erro_codigo: s.nullableString({ enum: [...failureCodes, null], description: 'Classified failure code.' }),
  erro_legivel: s.nullableString({ description: 'Human-readable failure.' }),
  created_at: s.dateTime(),
  sent_at: s.nullableDateTime(),
  assigned_setor_id: s.uuid(),
  actual_setor_id: s.nullableUuid({ description: 'Number that sent; null when not sent.' }),
  was_reassigned: s.boolean(),
  clientes: s.object({ nome: s.string(), telefone: s.string() }),
});

export const CampaignRecipient = s.object({
  id: s.uuid(),
  client_id: s.nullableUuid(),
  nome: s.string(),
  telefone: s.string(),
  status: messageStatus,
  erro_codigo: s.nullableString({ enum: [...failureCodes, null] }),
  sent_at: s.nullableDateTime(),
});

const campaignId = { id: idParam('campaign') };
const campaignsRead = { scope: 'campaigns:read' } as const;
const campaignsWrite = { scope: 'campaigns:write' } as const;

/** Every /v1/campaigns route (campaigns.controller.ts). */
export const campaignsOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/v1/campaigns',
    operationId: 'createCampaign',
    summary: 'Create a campaign',
    description:
      'Asynchronous bulk send to 1-10,000 recipients with personalisation ({{nome}}, {{primeiro_nome}}, {{saudacao}}, {{hora}}, {{data}}, {{telefone}}), ' +
      'anti-ban pacing, scheduling (`options.schedule_at`) and multi-number distribution. `name`, `recipients` and `message` are required ' +
      '(400 BAD_REQUEST when missing). Outside safe hours an immediate campaign answers 403 SAFE_HOUR_VIOLATION; at the concurrency cap ' +
      '403 CONCURRENT_LIMIT_EXCEEDED; both with `Retry-After`.',
    tag: 'Campaigns',
    auth: campaignsWrite,
    headers: {
      'Idempotency-Key': {
        schema: { type: 'string', minLength: 1, maxLength: 255 },
        description: 'A unique key (a UUID) per request: a repeated call within 24 hours returns the first answer with `meta.idempotent_replay: true` and creates nothing.',
      },
    },
    body: {
      schema: createCampaignSchema,
      example: { name: 'Boas-vindas', recipients: [{ phone: '+5511987654321', name: 'Ana' }], message: { text: '{{saudacao}}, {{primeiro_nome}}!' } },
    },
    success: {
      status: 202,
      description: 'Accepted: the campaign is queued.',
      data: s.ref('CampaignCreated'),
      meta: s.object({ idempotent_replay: s.boolean() }, { description: 'Present on an idempotent replay.' }),
    },
    errors: [
      'BULK_DISABLED',
      'PLAN_EXPIRED',
      'MULTI_NUMBER_DISABLED',
      'SAFE_HOUR_VIOLATION',
      'CONCURRENT_LIMIT_EXCEEDED',
      'NOT_FOUND',
      'CONFLICT',
      'IDEMPOTENCY_KEY_IN_USE',
      'IDEMPOTENCY_KEY_MISMATCH',
    ],
  },
  {
    method: 'get',
    path: '/v1/campaigns',
    operationId: 'listCampaigns',
    summary: 'List campaigns',
    tag: 'Campaigns',
    auth: campaignsRead,
    query: { schema: campaignListQuerySchema, extra: pageParams(100) },
    success: { status: 200, description: 'A page of campaigns, newest first.', data: s.page(s.ref('CampaignListItem')) },
  },
  {
    method: 'get',
    path: '/v1/campaigns/:id',
    operationId: 'getCampaign',
    summary: 'Read a campaign',
    description: 'Detail with progress; poll every 5-10 seconds.',
    tag: 'Campaigns',
    auth: campaignsRead,
    pathParams: campaignId,
    success: { status: 200, description: 'The campaign.', data: s.ref('CampaignDetail') },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/v1/campaigns/:id/messages',
    operationId: 'listCampaignMessages',
    summary: 'List campaign messages',
    description: 'Per-recipient message details; no `status` returns all.',
    tag: 'Campaigns',
    auth: campaignsRead,
    pathParams: campaignId,
    query: { schema: messageListQuerySchema, extra: pageParams(200) },
    success: { status: 200, description: 'A page of campaign messages.', data: s.page(s.ref('CampaignMessageDetail')) },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/v1/campaigns/:id/recipients',
    operationId: 'listCampaignRecipients',
    summary: 'List campaign recipients',
    description: 'Recipients with their individual status; `q` searches name and phone.',
    tag: 'Campaigns',
    auth: campaignsRead,
    pathParams: campaignId,
    query: { schema: messageListQuerySchema, extra: pageParams(200) },
    success: { status: 200, description: 'A page of recipients.', data: s.page(s.ref('CampaignRecipient')) },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/v1/campaigns/:id/pause',
    operationId: 'pauseCampaign',
    summary: 'Pause a campaign',
    description: 'Only a processing campaign; emits campaign.paused. Another status: 409 INVALID_TRANSITION with `details { status, allowed }`.',
    tag: 'Campaigns',
    auth: campaignsWrite,
    pathParams: campaignId,
    success: { status: 200, description: 'Paused.', data: s.object({ status: s.enum(['paused']) }) },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
  },
  {
    method: 'post',
    path: '/v1/campaigns/:id/resume',
    operationId: 'resumeCampaign',
    summary: 'Resume a campaign',
    description: 'Only a paused campaign; re-queues the still-pending messages.',
    tag: 'Campaigns',
    auth: campaignsWrite,
    pathParams: campaignId,
    success: {
      status: 200,
      description: 'Processing again.',
      data: s.object({ status: s.enum(['processing']), pending_requeued: s.integer({ minimum: 0 }) }),
    },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
  },
  {
    method: 'post',
    path: '/v1/campaigns/:id/cancel',
    operationId: 'cancelCampaign',
    summary: 'Cancel a campaign',
    description: 'Every pending message becomes pulado (cancelled_by_user); emits campaign.completed with cancelledByUser true.',
    tag: 'Campaigns',
    auth: campaignsWrite,
    pathParams: campaignId,
    success: { status: 200, description: 'Cancelled.', data: s.object({ cancelled: s.integer({ minimum: 0, description: 'Pending messages skipped.' }) }) },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
  },
  {
    method: 'post',
    path: '/v1/campaigns/:id/retry',
    operationId: 'retryCampaignMessages',
    summary: 'Retry failed messages',
    description: 'By `detailIds` or `all_failures`; at most 2 manual retries per message.',
    tag: 'Campaigns',
    auth: campaignsWrite,
    pathParams: campaignId,
    body: { schema: retryCampaignSchema, required: false, example: { all_failures: true } },
    success: {
      status: 200,
      description: 'What was queued again and what was not.',
      data: s.object({
        status: campaignStatus,
        retried: s.integer({ minimum: 0 }),
        not_retried: s.array(s.object({ id: s.string(), reason: s.enum(['not_failed', 'retry_limit_reached', 'not_found']) })),
      }),
    },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION', 'BULK_DISABLED'],
  },
];

export const campaignsSchemas = { CampaignCreated, CampaignListItem, CampaignDetail, CampaignMessageDetail, CampaignRecipient };
