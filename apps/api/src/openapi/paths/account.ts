import { type ApiOperation, pageParams, s } from '../operation.js';

const modality = s.enum(['mensal', 'avulso', 'inativo']);

/** GET /v1/limits (specification: 'GET /v1/limits'). */
export const LimitsView = s.object({
  bulk_messaging_enabled: s.boolean(),
  modality,
  plan_code: s.string(),
  expires_at: s.nullableDateTime(),
  unlimited: s.boolean({ description: 'True for unlimited (legacy) companies, never limited by balance.' }),
  avulso_balance: s.integer({ minimum: -1, description: 'Prepaid messages; 0 on mensal and inativo, -1 for unlimited companies.' }),
  daily: s.object({ limit: s.integer(), sent_today: s.integer(), remaining: s.integer() }),
  concurrent_campaigns: s.object({ limit: s.integer(), active: s.integer(), remaining: s.integer() }),
  max_recipients_per_campaign: s.integer(),
  rate_limit: s.object({ api_key_rpm: s.integer(), company_rpm: s.integer(), effective_rpm: s.integer() }),
  safe_hours: s.object({ start: s.integer({ minimum: 0, maximum: 24 }), end: s.integer({ minimum: 0, maximum: 24 }) }, { description: 'Hours in the company time zone.' }),
  timezone: s.string({ description: 'IANA time zone of the company (safe hours, {{hora}}, {{data}}).' }),
});

export const SetorListItem = s.object({
  id: s.uuid(),
  nome: s.string(),
  channel_type: s.enum(['qr', 'official']),
  instance_id: s.nullableUuid(),
  status: s.enum(['disconnected', 'connecting', 'connected']),
  connected: s.boolean(),
  phone_number: s.nullableString(),
  created_at: s.dateTime(),
});

export const TeamListItem = s.object({ id: s.uuid(), nome: s.string(), setor_ids: s.array(s.uuid()), created_at: s.dateTime() });

/** Limits, balance and the discovery lists (account.controller.ts). */
export const accountOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/v1/limits',
    operationId: 'getLimits',
    summary: 'Read limits, capacity and balance',
    description: 'Effective limits of the company and of the calling key: daily messages, simultaneous campaigns, rate limits, safe hours and prepaid balance.',
    tag: 'Account',
    auth: { scope: 'credits:read' },
    success: { status: 200, description: 'The effective limits.', data: s.ref('Limits') },
  },
  {
    method: 'get',
    path: '/v1/billing/balance',
    operationId: 'getBalance',
    summary: 'Read prepaid balances',
    tag: 'Account',
    auth: { scope: 'credits:read' },
    success: {
      status: 200,
      description: 'The three prepaid kinds; only `messages` is used by this service.',
      data: s.object({
        modality,
        unlimited: s.boolean(),
        balances: s.object({ messages: s.integer({ minimum: -1 }), ai_credits: s.integer(), lead_credits: s.integer() }),
      }),
    },
  },
  {
    method: 'get',
    path: '/v1/setores',
    operationId: 'listSetores',
    summary: 'List boxes (numbers)',
    description: 'The company boxes with the state of their channel instance: discovery of `setor_id`.',
    tag: 'Account',
    auth: { scope: 'tickets:read' },
    query: { extra: pageParams(100) },
    success: { status: 200, description: 'A page of boxes.', data: s.page(s.ref('SetorListItem')) },
  },
  {
    method: 'get',
    path: '/v1/teams',
    operationId: 'listTeams',
    summary: 'List teams',
    description: 'Teams and their boxes (for `team_id` in sends and campaigns).',
    tag: 'Account',
    auth: { scope: 'tickets:read' },
    query: { extra: pageParams(100) },
    success: { status: 200, description: 'A page of teams.', data: s.page(s.ref('TeamListItem')) },
  },
];

export const accountSchemas = { Limits: LimitsView, SetorListItem, TeamListItem };
