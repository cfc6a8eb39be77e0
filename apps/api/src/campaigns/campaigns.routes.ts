import {
  AntiBanLevels,
  CAMPAIGN_LIMITS,
  LEGACY_ANTI_BAN_LEVELS,
  MAX_RECIPIENTS_PER_CAMPAIGN,
  MediaDeliveries,
  MediaTypes,
  CampaignStatuses,
  CancelCampaign,
  CreateCampaign,
  PauseCampaign,
  PublicMessageStatuses,
  ReadCampaigns,
  ResumeCampaign,
  RetryCampaignMessages,
  SendFailureGroups,
  type CampaignCaller,
  type CampaignStatus,
  type Principal,
  type Page,
  type PublicMessageStatus,
} from '@carteiro/core';
import { defineRoute, idParam, reply } from '../http/route.js';
import { getById, type Use } from '../shared/get-by-id.js';
import { pageOfCompany } from '../shared/page-of-company.js';
import { component, pageProperties, s, typed, type JsonSchema, type PageQuery } from '../http/schema.js';
import {
  campaignCreatedView,
  campaignDetailView,
  campaignListItemView,
  campaignMessageView,
  campaignRecipientView,
  createCampaignCommand,
  resumedView,
  retryCampaignCommand,
  retryResultView,
  type CreateCampaignBody,
  type RetryCampaignBody,
} from './campaign-views.js';
import { idempotencyOf } from '../shared/idempotency-of.js';

// ---- Request schemas -------------------------------------------------------------------------

const nullableString = { type: ['string', 'null'] };
const nullableStringArray = { type: ['array', 'null'], items: { type: 'string' } };
const httpsUrl = (description: string) => ({ type: ['string', 'null'], format: 'uri', maxLength: 2048, description });
const mediaType = { type: ['string', 'null'], enum: [...MediaTypes, null] };

/** The specification's answers for a missing name, recipients or message (400 BAD_REQUEST, not VALIDATION_ERROR). */
const required = (message: string, field: string) => ({ code: 'BAD_REQUEST', message, details: { field } });
const nameMissing = required('name is required', 'name');
const recipientsMissing = required('recipients is required (1 to 10000 items)', 'recipients');

/**
 * The POST /v1/campaigns body. The schema says every rule a schema can say (and so does the
 * OpenAPI document); the ones across fields (text or template, variants without a template,
 * one way of choosing numbers, media type with media URL, HTTPS media, a future schedule_at)
 * are the core's (`validateCreateCampaign`). `x-errors` keep the specification's answers:
 * 400 BAD_REQUEST for a missing name, recipients or message and 'Maximum 10000 recipients'.
 */
export const createCampaignSchema = typed<CreateCampaignBody>({
  type: 'object',
  required: ['name', 'recipients', 'message'],
  additionalProperties: false,
  'x-errors': { required: { name: nameMissing, recipients: recipientsMissing, message: required('message is required', 'message') } },
  properties: {
    name: {
      type: 'string',
      pattern: '\\S',
      description: 'Shown in the history and in webhooks; not blank.',
      'x-errors': { type: nameMissing, pattern: nameMissing },
    },
    title: { type: ['string', 'null'], maxLength: CAMPAIGN_LIMITS.title },
    description: { type: ['string', 'null'], maxLength: CAMPAIGN_LIMITS.description },
    setor_id: { type: ['string', 'null'], maxLength: 64, description: 'One number; omitted auto-selects. Unknown: 404.' },
    setor_ids: { type: ['array', 'null'], items: { type: 'string', maxLength: 64 }, maxItems: 1000 },
    distribution_mode: { type: ['string', 'null'], enum: ['single', 'multi_number', null] },
    multi_number: { type: ['boolean', 'null'] },
    team_id: { type: ['string', 'null'], maxLength: 64 },
    recipients: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_RECIPIENTS_PER_CAMPAIGN,
      description: '1 to 10,000 recipients; each needs phone or client_id.',
      'x-errors': {
        minItems: recipientsMissing,
        maxItems: { code: 'BAD_REQUEST', message: `Maximum ${MAX_RECIPIENTS_PER_CAMPAIGN} recipients`, details: { field: 'recipients', max: MAX_RECIPIENTS_PER_CAMPAIGN } },
      },
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          phone: { type: ['string', 'null'], maxLength: 64, description: 'E.164, or national in the company default country; needed without client_id.' },
          client_id: { type: ['string', 'null'], maxLength: 64, description: 'A contact of the company; wins over phone.' },
          name: { type: ['string', 'null'], maxLength: 200 },
          text: { type: ['string', 'null'], maxLength: CAMPAIGN_LIMITS.recipientText },
          media_url: httpsUrl('HTTPS; needs media_type.'),
          media_type: mediaType,
          variables: { type: ['object', 'null'], additionalProperties: { type: 'string', maxLength: 1024 } },
        },
      },
    },
    message: {
      type: 'object',
      additionalProperties: false,
      'x-errors': { type: required('message is required', 'message') },
      properties: {
        text: { type: ['string', 'null'], maxLength: 4096, description: 'Required unless template_name is sent.' },
        variants: { type: ['array', 'null'], maxItems: CAMPAIGN_LIMITS.variants, items: { type: 'string', minLength: 1, maxLength: CAMPAIGN_LIMITS.variantLength } },
        media_url: httpsUrl('HTTPS; needs media_type.'),
        media_type: mediaType,
        media_delivery: { type: ['string', 'null'], enum: [...MediaDeliveries, null] },
        media_filename: { type: ['string', 'null'], maxLength: 255 },
        template_name: { type: ['string', 'null'], maxLength: 512 },
        template_language: { type: ['string', 'null'], maxLength: 32, description: 'Required with template_name.' },
        template_components: { type: ['array', 'null'] },
        template_raw: { type: ['array', 'null'] },
        template_vars: nullableStringArray,
      },
    },
    options: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        schedule_at: { ...nullableString, description: 'ISO 8601 date-time in the future; omitted starts at once.' },
        anti_ban_level: { type: ['string', 'null'], enum: [...AntiBanLevels, ...Object.keys(LEGACY_ANTI_BAN_LEVELS), null] },
        distribution: { type: ['string', 'null'], enum: ['interleaved', 'sequential', null] },
        callback_url: { ...httpsUrl('Called when this campaign finishes (https, public address).'), 'x-error-reason': 'invalid_url' },
      },
    },
  },
});

export const retryCampaignSchema = typed<RetryCampaignBody>({
  type: 'object',
  additionalProperties: false,
  properties: {
    detailIds: { type: 'array', items: { type: 'string' }, maxItems: 10_000 },
    all_failures: { type: 'boolean' },
  },
});

const campaignListQuery = typed<PageQuery & { status?: CampaignStatus }>({
  type: 'object',
  properties: { status: { enum: [...CampaignStatuses] }, ...pageProperties(100) },
});

type MessageListQuery = PageQuery & { status?: PublicMessageStatus; q?: string };
const messageListQuery = typed<MessageListQuery>({
  type: 'object',
  properties: { status: { enum: [...PublicMessageStatuses] }, q: { type: 'string', maxLength: 100 }, ...pageProperties(200) },
});

// ---- Response schemas ------------------------------------------------------------------------

const failureCodes = Object.values(SendFailureGroups).flat();
const campaignStatus = s.enum(CampaignStatuses, { description: 'pendente (queued), processando, pausado, concluido or falha.' });
const messageStatus = s.enum(PublicMessageStatuses);
const executionMode = s.enum(['immediate', 'scheduled', 'deferred_to_safe_window']);
const distributionMode = s.enum(['single', 'multi_number']);

const CampaignCreated = component(
  'CampaignCreated',
  s.object({
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
  }),
);

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

const CampaignListItem = component('CampaignListItem', s.object(listItemProperties));

const CampaignDetail = component(
  'CampaignDetail',
  s.object({
    ...listItemProperties,
    imagem_url: s.nullableString(),
    progress: s.integer({ minimum: 0, maximum: 100, description: '(enviados + falhas + pulados) / total × 100.' }),
    updated_at: s.dateTime(),
    title: s.nullableString(),
    description: s.nullableString(),
    status_en: s.string({ description: 'The status in English (queued, processing, paused, completed, failed).' }),
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
  }),
);

const CampaignMessageDetail = component(
  'CampaignMessageDetail',
  s.object({
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
  }),
);

const CampaignRecipient = component(
  'CampaignRecipient',
  s.object({
    id: s.uuid(),
    client_id: s.nullableUuid(),
    nome: s.string(),
    telefone: s.string(),
    status: messageStatus,
    erro_codigo: s.nullableString({ enum: [...failureCodes, null] }),
    sent_at: s.nullableDateTime(),
  }),
);

// ---- Routes ----------------------------------------------------------------------------------

const campaignId = { id: idParam('campaign', 'Campaign') };
const read = { scope: 'campaigns:read' } as const;
const write = { scope: 'campaigns:write' } as const;

function caller(principal: Principal): CampaignCaller {
  return { companyId: principal.company.id, apiKeyId: principal.apiKey.id, mode: principal.apiKey.mode };
}

/**
 * `POST /v1/campaigns/:id/<action>`: a change of status of one campaign of the caller's company
 * (404 NOT_FOUND when it has none, 409 INVALID_TRANSITION when its status refuses the change).
 */
function campaignAction(route: {
  action: 'pause' | 'resume' | 'cancel';
  operationId: string;
  summary: string;
  description: string;
  response: { description: string; data: JsonSchema };
  run(use: Use, companyId: string, id: string): Promise<unknown>;
}) {
  const { action, response, run, ...texts } = route;
  return defineRoute({
    method: 'post',
    path: `/v1/campaigns/:id/${action}`,
    auth: write,
    ...texts,
    tag: 'Campaigns',
    params: campaignId,
    response: { status: 200, ...response },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
    async handler({ params, principal, use }) {
      return run(use, principal.company.id, params.id);
    },
  });
}

/**
 * `GET /v1/campaigns/:id/<list>`: one page of the per-recipient rows of one campaign of the caller's company
 * (404 NOT_FOUND when it has none), as `load` reads them with the query, each item answered through `view`.
 */
function campaignMessagesPage<Item>(route: {
  list: 'messages' | 'recipients';
  operationId: string;
  summary: string;
  description: string;
  /** The 200 answer: what the page holds and the schema of one item. */
  response: { description: string; item: JsonSchema };
  load(campaigns: ReadCampaigns, companyId: string, id: string, query: MessageListQuery): Promise<Page<Item>>;
  view(item: Item): unknown;
}) {
  const { list, response, load, view, ...texts } = route;
  return defineRoute({
    method: 'get',
    path: `/v1/campaigns/:id/${list}`,
    auth: read,
    ...texts,
    tag: 'Campaigns',
    params: campaignId,
    query: messageListQuery,
    response: { status: 200, description: response.description, data: s.page(response.item) },
    errors: ['NOT_FOUND'],
    async handler({ params, query, principal, use }) {
      const page = await load(use(ReadCampaigns), principal.company.id, params.id, query);
      return { ...page, items: page.items.map(view) };
    },
  });
}

/** Every /v1/campaigns route of the specification. */
export const campaignsRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/campaigns',
    auth: write,
    operationId: 'createCampaign',
    summary: 'Create a campaign',
    description:
      'Asynchronous bulk send to 1-10,000 recipients with personalisation ({{nome}}, {{primeiro_nome}}, {{saudacao}}, {{hora}}, {{data}}, {{telefone}}), ' +
      'anti-ban pacing, scheduling (`options.schedule_at`) and multi-number distribution. `name`, `recipients` and `message` are required ' +
      '(400 BAD_REQUEST when missing). Outside safe hours an immediate campaign answers 403 SAFE_HOUR_VIOLATION; at the concurrency cap ' +
      '403 CONCURRENT_LIMIT_EXCEEDED; both with `Retry-After`.',
    tag: 'Campaigns',
    headers: {
      'Idempotency-Key': {
        // Its rule (1 to 255 visible ASCII characters) is the core's, checked after the body's as before.
        schema: { type: 'string' },
        description:
          'A unique key (a UUID) per request, 1 to 255 visible ASCII characters: a repeated call within 24 hours returns the first answer with `meta.idempotent_replay: true` and creates nothing.',
      },
    },
    body: {
      schema: createCampaignSchema,
      example: { name: 'Boas-vindas', recipients: [{ phone: '+5511987654321', name: 'Ana' }], message: { text: '{{saudacao}}, {{primeiro_nome}}!' } },
    },
    response: {
      status: 202,
      description: 'Accepted: the campaign is queued.',
      data: CampaignCreated,
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
    async handler({ body, headers, principal, res, use }) {
      const idempotency = idempotencyOf(headers, principal, '/v1/campaigns', body);
      const { created, replay } = await use(CreateCampaign).execute(caller(principal), createCampaignCommand(body), idempotency);
      if (!replay) return campaignCreatedView(created);
      res.setHeader('Idempotent-Replayed', 'true');
      return reply(campaignCreatedView(created), { meta: { idempotent_replay: true } });
    },
  }),
  pageOfCompany({
    path: '/v1/campaigns',
    auth: read,
    operationId: 'listCampaigns',
    summary: 'List campaigns',
    tag: 'Campaigns',
    query: campaignListQuery,
    response: { description: 'A page of campaigns, newest first.', item: CampaignListItem },
    list: (use, companyId, { status, page, limit }) => use(ReadCampaigns).list(companyId, status, { page, limit }),
    view: campaignListItemView,
  }),
  getById({
    path: '/v1/campaigns/:id', auth: read, params: campaignId,
    operationId: 'getCampaign', summary: 'Read a campaign', description: 'Detail with progress; poll every 5-10 seconds.', tag: 'Campaigns',
    response: { description: 'The campaign.', data: CampaignDetail },
    read: async (use, companyId, id) => campaignDetailView(await use(ReadCampaigns).detail(companyId, id)),
  }),
  campaignMessagesPage({
    list: 'messages',
    operationId: 'listCampaignMessages',
    summary: 'List campaign messages',
    description: 'Per-recipient message details; no `status` returns all.',
    response: { description: 'A page of campaign messages.', item: CampaignMessageDetail },
    load: (campaigns, companyId, id, { status, page, limit }) => campaigns.messages(companyId, id, status, { page, limit }),
    view: campaignMessageView,
  }),
  campaignMessagesPage({
    list: 'recipients',
    operationId: 'listCampaignRecipients',
    summary: 'List campaign recipients',
    description: 'Recipients with their individual status; `q` searches name and phone.',
    response: { description: 'A page of recipients.', item: CampaignRecipient },
    load: (campaigns, companyId, id, { status, q, page, limit }) =>
      campaigns.recipients(companyId, id, { ...(status ? { status } : {}), ...(q ? { q } : {}) }, { page, limit }),
    view: campaignRecipientView,
  }),
  campaignAction({
    action: 'pause',
    operationId: 'pauseCampaign',
    summary: 'Pause a campaign',
    description: 'Only a processing campaign; emits campaign.paused. Another status: 409 INVALID_TRANSITION with `details { status, allowed }`.',
    response: { description: 'Paused.', data: s.object({ status: s.enum(['paused']) }) },
    run: (use, companyId, id) => use(PauseCampaign).execute(companyId, id),
  }),
  campaignAction({
    action: 'resume',
    operationId: 'resumeCampaign',
    summary: 'Resume a campaign',
    description: 'Only a paused campaign; re-queues the still-pending messages.',
    response: { description: 'Processing again.', data: s.object({ status: s.enum(['processing']), pending_requeued: s.integer({ minimum: 0 }) }) },
    run: async (use, companyId, id) => resumedView(await use(ResumeCampaign).execute(companyId, id)),
  }),
  campaignAction({
    action: 'cancel',
    operationId: 'cancelCampaign',
    summary: 'Cancel a campaign',
    description: 'Every pending message becomes pulado (cancelled_by_user); emits campaign.completed with cancelledByUser true.',
    response: { description: 'Cancelled.', data: s.object({ cancelled: s.integer({ minimum: 0, description: 'Pending messages skipped.' }) }) },
    run: (use, companyId, id) => use(CancelCampaign).execute(companyId, id),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/campaigns/:id/retry',
    auth: write,
    operationId: 'retryCampaignMessages',
    summary: 'Retry failed messages',
    description: 'By `detailIds` or `all_failures`; at most 2 manual retries per message.',
    tag: 'Campaigns',
    params: campaignId,
    body: { schema: retryCampaignSchema, required: false, example: { all_failures: true } },
    response: {
      status: 200,
      description: 'What was queued again and what was not.',
      data: s.object({
        status: campaignStatus,
        retried: s.integer({ minimum: 0 }),
        not_retried: s.array(s.object({ id: s.string(), reason: s.enum(['not_failed', 'retry_limit_reached', 'not_found']) })),
      }),
    },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION', 'BULK_DISABLED'],
    async handler({ params, body, principal, use }) {
      return retryResultView(await use(RetryCampaignMessages).execute(principal.company.id, params.id, retryCampaignCommand(body)));
    },
  }),
];
