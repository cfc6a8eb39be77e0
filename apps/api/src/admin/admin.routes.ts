import { AdminService, QuotaNames, Scopes, UpdateCompanySettings, ValidationError, type CompanySettingsInput, type CompanyWithSettings, type Setor } from '@carteiro/core';
import { adminIdParam, defineRoute } from '../http/route.js';
import { INT4_MAX, component, s, typed, type JsonSchema } from '../http/schema.js';
import { setorInboxBodyProperties, setorInboxInput, setorInboxProperties, type SetorInboxBody } from '../agents/agent-views.js';
import { apiKeyView, companyView, setorView, teamView } from './admin-views.js';
import { companyPageRoute } from '../shared/company-page-route.js';
import { adminDeleteById, adminReadById, adminUpdateById } from '../shared/admin-update-by-id.js';
import { adminCreateInCompany } from '../shared/admin-create-in-company.js';
import type { Use } from '../shared/get-by-id.js';
import { SetorWarmingReader } from './setor-warming.js';

// ---- Request schemas -------------------------------------------------------------------------

const hour = { type: 'integer', minimum: 0, maximum: 24 };
/** A limit column (PostgreSQL integer); `null` returns it to the plan default. */
const limitOrNull = (minimum: number, description: string) => ({ type: ['integer', 'null'], minimum, maximum: INT4_MAX, description });

const companySettings = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  plan_code: { type: 'string', minLength: 1, maxLength: 50 },
  modality: { type: 'string', enum: ['mensal', 'avulso', 'inativo'] },
  expires_at: { type: ['string', 'null'], format: 'date-time' },
  avulso_balance: { type: 'integer', minimum: 0, maximum: INT4_MAX, description: 'Prepaid messages.' },
  unlimited: { type: 'boolean' },
  bulk_messaging_enabled: { type: 'boolean' },
  multi_number_enabled: { type: 'boolean' },
  daily_limit: limitOrNull(0, 'Messages per day; null for the plan default.'),
  concurrent_campaigns_limit: limitOrNull(0, 'Simultaneous campaigns; null for the plan default.'),
  company_rpm: limitOrNull(1, 'Requests per minute of the whole company; null for the plan default.'),
  safe_hours: {
    type: 'object',
    required: ['start', 'end'],
    additionalProperties: false,
    properties: { start: hour, end: hour },
    description: 'Hours 0-24 (company time zone) between which campaigns send; start must be before end.',
  },
  timezone: { type: 'string', minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. America/Sao_Paulo.' },
  default_country: {
    type: 'string',
    pattern: '^[A-Z]{2}$',
    description: 'ISO 3166-1 alpha-2 country of phone numbers written without their country code (default BR).',
  },
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
  default_country?: string;
}

export const createCompanySchema = typed<CompanyBody & { name: string }>({
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: companySettings,
});

export const updateCompanySchema = typed<CompanyBody>({
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: companySettings,
});

const reminderOffsets = { type: ['array', 'null'], maxItems: 3, items: { type: 'integer', minimum: 1, maximum: 10080 }, description: 'Company reminder offsets (null: the default [1440, 120]); as PUT …/reminder-settings.' };
const thresholdValue = { type: ['integer', 'null'], minimum: 0, maximum: INT4_MAX };
type PatchCompanyBody = CompanyBody & {
  reminder_offsets_minutes?: number[] | null;
  reminder_text?: string | null;
  low_balance_thresholds?: Partial<Record<'messages' | 'ai_credits' | 'lead_credits', number | null>>;
  quotas?: Record<string, number | null>;
};

/** PATCH /admin/v1/companies/:id (business.md §8): the settings plus reminder offsets/text and low-balance thresholds. */
export const patchCompanySchema = typed<PatchCompanyBody>({
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...companySettings,
    reminder_offsets_minutes: reminderOffsets,
    reminder_text: { type: ['string', 'null'], maxLength: 4096 },
    low_balance_thresholds: {
      type: 'object',
      additionalProperties: false,
      description: 'Per kind; omitted kinds keep theirs, null restores the default.',
      properties: { messages: thresholdValue, ai_credits: thresholdValue, lead_credits: thresholdValue },
    },
    quotas: {
      type: 'object',
      additionalProperties: false,
      description: 'Overrides of the plan quotas (business.md §0); null returns a quota to the plan’s; quotas not named keep theirs. None apply to `unlimited` companies.',
      properties: Object.fromEntries(QuotaNames.map((name) => [name, { type: ['integer', 'null'], minimum: 0, maximum: 1_000_000 }])),
    },
  },
});

export interface CreateApiKeyBody {
  name: string;
  scopes: string[];
  mode: 'live' | 'test';
  rpm?: number;
}

export const createApiKeySchema = typed<CreateApiKeyBody>({
  type: 'object',
  required: ['name', 'scopes', 'mode'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: ['*', ...Scopes] } },
    mode: { type: 'string', enum: ['live', 'test'] },
    rpm: { type: 'integer', minimum: 1, maximum: 100_000 },
  },
});

export const rotateApiKeySchema = typed<{ grace_seconds?: number }>({
  type: 'object',
  additionalProperties: false,
  properties: { grace_seconds: { type: 'integer', minimum: 0, maximum: 30 * 86_400, default: 86_400 } },
});

export interface CreateSetorBody {
  nome: string;
  channel_type?: 'qr' | 'official';
  official?: { phone_number_id: string; access_token: string; waba_id: string };
}

const nome = { type: 'string', minLength: 1, maxLength: 200 };

export const createSetorSchema = typed<CreateSetorBody>({
  type: 'object',
  required: ['nome'],
  additionalProperties: false,
  properties: {
    nome,
    channel_type: { type: 'string', enum: ['qr', 'official'] },
    official: {
      type: 'object',
      required: ['phone_number_id', 'access_token', 'waba_id'],
      additionalProperties: false,
      properties: {
        phone_number_id: { type: 'string', minLength: 1, maxLength: 64 },
        access_token: { type: 'string', minLength: 1, maxLength: 4096 },
        waba_id: { type: 'string', minLength: 1, maxLength: 64 },
      },
    },
  },
});

export const updateSetorSchema = typed<{ nome?: string; warming_daily_limit?: number | null } & SetorInboxBody>({
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { nome, warming_daily_limit: limitOrNull(0, 'Overrides the warming stage; null returns to it.'), ...setorInboxBodyProperties },
});

export const createTeamSchema = typed<{ nome: string; setor_ids?: string[] }>({
  type: 'object',
  required: ['nome'],
  additionalProperties: false,
  properties: { nome, setor_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, uniqueItems: true, maxItems: 1000 } },
});

function toSettings(body: CompanyBody): CompanySettingsInput {
  return {
    name: body.name,
    planCode: body.plan_code,
    modality: body.modality,
    expiresAt: body.expires_at === undefined ? undefined : body.expires_at === null ? null : new Date(body.expires_at),
    avulsoBalance: body.avulso_balance,
    unlimited: body.unlimited,
    bulkMessagingEnabled: body.bulk_messaging_enabled,
    multiNumberEnabled: body.multi_number_enabled,
    dailyLimit: body.daily_limit,
    concurrentCampaignsLimit: body.concurrent_campaigns_limit,
    companyRpm: body.company_rpm,
    safeHours: body.safe_hours,
    timezone: body.timezone,
    defaultCountry: body.default_country,
  };
}

/** Whether the time zone exists is a question for Intl, not for a schema. */
function checkTimezone(timezone: string | undefined): void {
  if (timezone === undefined) return;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new ValidationError(`Unknown time zone ${timezone}`, { field: 'timezone' });
  }
}

// ---- Response schemas ------------------------------------------------------------------------

const Company = component(
  'Company',
  s.object({
    id: s.uuid(),
    name: s.string(),
    plan_code: s.string(),
    modality: s.enum(['mensal', 'avulso', 'inativo']),
    expires_at: s.nullableDateTime(),
    avulso_balance: s.integer({ minimum: -1 }),
    unlimited: s.boolean(),
    bulk_messaging_enabled: s.boolean(),
    multi_number_enabled: s.boolean(),
    daily_limit: s.integer({ description: 'Effective: the company override or the plan default.' }),
    concurrent_campaigns_limit: s.integer(),
    company_rpm: s.integer(),
    safe_hours: s.object({ start: s.integer(), end: s.integer() }),
    timezone: s.string(),
    default_country: s.string({ description: 'ISO 3166-1 alpha-2 country of national phone numbers.' }),
    quotas: { type: 'object', additionalProperties: { type: 'integer' }, description: 'The operator’s quota overrides (quota name → limit); quotas not named take the plan’s.' },
    reminder_offsets_minutes: { type: ['array', 'null'], items: { type: 'integer' }, description: 'The company’s appointment reminder offsets; null: the default.' },
    reminder_text: s.nullableString(),
    low_balance_thresholds: s.object({ messages: s.nullableInteger(), ai_credits: s.nullableInteger(), lead_credits: s.nullableInteger() }),
    created_at: s.dateTime(),
    updated_at: s.dateTime(),
  }),
);

function companyWithSettingsView({ company, reminders, lowBalanceThresholds }: CompanyWithSettings) {
  return { ...companyView(company), reminder_offsets_minutes: reminders.reminderOffsetsMinutes, reminder_text: reminders.reminderText, low_balance_thresholds: lowBalanceThresholds };
}


const apiKeyProperties: Record<string, JsonSchema> = {
  id: s.uuid(),
  company_id: s.uuid(),
  name: s.string(),
  prefix: s.string({ description: 'First 12 characters, to tell keys apart.' }),
  scopes: s.array(s.enum(['*', ...Scopes])),
  mode: s.enum(['live', 'test']),
  rpm: s.integer(),
  created_at: s.dateTime(),
  revoked_at: s.nullableDateTime(),
  expires_at: s.nullableDateTime({ description: 'Set on the old key by a rotation (end of the grace period).' }),
};

const ApiKey = component('ApiKey', s.object(apiKeyProperties));
const IssuedApiKey = component('IssuedApiKey', s.object({ ...apiKeyProperties, key: s.string({ description: 'The full key: shown only here.' }) }));

const setorProperties: Record<string, JsonSchema> = {
  id: s.uuid(),
  company_id: s.uuid(),
  nome: s.string(),
  channel_type: s.enum(['qr', 'official']),
  official: { type: ['object', 'null'], required: ['phone_number_id', 'waba_id'], properties: { phone_number_id: s.string(), waba_id: s.string() } },
  warming_daily_limit_override: s.nullableInteger(),
  ...setorInboxProperties,
  created_at: s.dateTime(),
  updated_at: s.dateTime(),
};

const Setor = component('Setor', s.object(setorProperties));
const SetorWithWarming = component(
  'SetorWithWarming',
  s.object({ ...setorProperties, warming: s.object({ stage: s.integer(), daily_limit: s.integer(), sent_today: s.integer() }) }),
);

// ---- Routes ----------------------------------------------------------------------------------

const apiKeyId = { id: adminIdParam('API key') };
const admin = 'admin' as const;

/** A box with its warming state: what the operator's read and change of one box answer. */
async function setorWithWarming(use: Use, setor: Setor) {
  return { ...setorView(setor), warming: await use<SetorWarmingReader>(SetorWarmingReader)(setor) };
}

/** The operator's /admin/v1 API: companies, their API keys, setores and teams. */
export const adminRoutes = [
  defineRoute({
    method: 'post',
    path: '/admin/v1/companies',
    auth: admin,
    operationId: 'adminCreateCompany',
    summary: 'Create a company',
    tag: 'Admin',
    body: { schema: createCompanySchema, example: { name: 'Acme', plan_code: 'pro' } },
    response: { status: 201, description: 'The company with every effective setting, its reminder settings and low-balance thresholds.', data: Company },
    async handler({ body, use }) {
      checkTimezone(body.timezone);
      const company = await use(AdminService).createCompany({ ...toSettings(body), name: body.name });
      return companyWithSettingsView(await use(UpdateCompanySettings).read(company.id));
    },
  }),
  adminReadById({
    path: '/admin/v1/companies/:id',
    operationId: 'adminGetCompany',
    summary: 'Read a company',
    record: 'company',
    response: { description: 'The company, with its reminder settings and low-balance thresholds in force.', data: Company },
    read: async (use, id) => companyWithSettingsView(await use(UpdateCompanySettings).read(id)),
  }),
  adminUpdateById({
    path: '/admin/v1/companies/:id',
    operationId: 'adminUpdateCompany',
    summary: 'Update a company',
    description: '`null` returns a limit to the plan default.',
    record: 'company',
    body: { schema: patchCompanySchema },
    response: { description: 'The company, with its reminder settings and low-balance thresholds in force.', data: Company },
    async update(use, id, body) {
      checkTimezone(body.timezone);
      const { reminder_offsets_minutes, reminder_text, low_balance_thresholds, quotas, ...settings } = body;
      const updated = await use(UpdateCompanySettings).execute(id, {
        settings: { ...toSettings(settings), ...(quotas !== undefined ? { quotaOverrides: quotas } : {}) },
        reminders: {
          ...(reminder_offsets_minutes !== undefined ? { reminderOffsetsMinutes: reminder_offsets_minutes } : {}),
          ...(reminder_text !== undefined ? { reminderText: reminder_text } : {}),
        },
        lowBalanceThresholds: low_balance_thresholds ?? {},
      });
      return companyWithSettingsView(updated);
    },
  }),
  adminCreateInCompany({
    path: '/admin/v1/companies/:id/api-keys',
    operationId: 'adminCreateApiKey',
    summary: 'Create an API key',
    description: '`*` grants every scope, including later ones.',
    body: { schema: createApiKeySchema, example: { name: 'backend', scopes: ['messages:write', 'campaigns:read'], mode: 'live' } },
    response: { description: 'The key, shown in full only here.', data: IssuedApiKey },
    async create(use, companyId, body) {
      const issued = await use(AdminService).createApiKey(companyId, body);
      return { ...apiKeyView(issued.apiKey), key: issued.key };
    },
  }),
  companyPageRoute({
    path: '/admin/v1/companies/:id/api-keys',
    operationId: 'adminListApiKeys',
    summary: 'List API keys',
    description: 'A page of keys (never the keys themselves).',
    item: ApiKey,
    list: (use, companyId, query) => use(AdminService).listApiKeys(companyId, query),
    view: apiKeyView,
  }),
  defineRoute({
    method: 'post',
    path: '/admin/v1/api-keys/:id/rotate',
    auth: admin,
    operationId: 'adminRotateApiKey',
    summary: 'Rotate an API key',
    description: 'A new key with the same name, scopes, mode and rpm; the old one keeps working for `grace_seconds` (default 86400).',
    tag: 'Admin',
    params: apiKeyId,
    body: { schema: rotateApiKeySchema, required: false },
    response: { status: 201, description: 'The new key, shown in full only here.', data: IssuedApiKey },
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT'],
    async handler({ params, body, use }) {
      const issued = await use(AdminService).rotateApiKey(params.id, body.grace_seconds ?? 86_400);
      return { ...apiKeyView(issued.apiKey), key: issued.key };
    },
  }),
  adminDeleteById({
    path: '/admin/v1/api-keys/:id',
    operationId: 'adminRevokeApiKey',
    summary: 'Revoke an API key',
    description: 'The key answers 401 at once.',
    record: 'API key',
    response: { description: 'Revoked.', data: s.object({ revoked: s.boolean({ const: true }), id: s.uuid() }) },
    async remove(use, id) {
      const revoked = await use(AdminService).revokeApiKey(id);
      return { revoked: true, id: revoked.id };
    },
  }),
  adminCreateInCompany({
    path: '/admin/v1/companies/:id/setores',
    operationId: 'adminCreateSetor',
    summary: 'Create a box',
    body: { schema: createSetorSchema, example: { nome: 'Vendas' } },
    response: { description: 'The box (never its official access token).', data: Setor },
    async create(use, companyId, body) {
      const setor = await use(AdminService).createSetor(companyId, {
        nome: body.nome,
        channelType: body.channel_type,
        official: body.official
          ? { phoneNumberId: body.official.phone_number_id, accessToken: body.official.access_token, wabaId: body.official.waba_id }
          : null,
      });
      return setorView(setor);
    },
  }),
  companyPageRoute({
    path: '/admin/v1/companies/:id/setores',
    operationId: 'adminListSetores',
    summary: 'List boxes',
    description: 'A page of boxes.',
    item: Setor,
    list: (use, companyId, query) => use(AdminService).listSetores(companyId, query),
    view: setorView,
  }),
  adminReadById({
    path: '/admin/v1/setores/:id',
    operationId: 'adminGetSetor',
    summary: 'Read a box with its warming state',
    record: 'box',
    response: { description: 'The box.', data: SetorWithWarming },
    read: async (use, id) => setorWithWarming(use, await use(AdminService).getSetor(id)),
  }),
  adminUpdateById({
    path: '/admin/v1/setores/:id',
    operationId: 'adminUpdateSetor',
    summary: 'Update a box',
    description: '`warming_daily_limit` overrides the automatic warming stage; `null` returns to it. The ticket settings (conversations.md §9): `closing_message` (placeholders as quick replies), `csat_*`, `reopen_window_minutes`, `assistant_enabled`, `default_team_id` (a team of the company).',
    record: 'box',
    body: { schema: updateSetorSchema },
    response: { description: 'The box.', data: SetorWithWarming },
    async update(use, id, body) {
      return setorWithWarming(use, await use(AdminService).updateSetor(id, { nome: body.nome, warmingDailyLimit: body.warming_daily_limit, inbox: setorInboxInput(body) }));
    },
  }),
  adminCreateInCompany({
    path: '/admin/v1/companies/:id/teams',
    operationId: 'adminCreateTeam',
    summary: 'Create a team',
    body: { schema: createTeamSchema },
    response: {
      description: 'The team.',
      data: s.object({ id: s.uuid(), company_id: s.uuid(), nome: s.string(), setor_ids: s.array(s.uuid()), auto_assign: s.boolean(), max_open_per_agent: s.integer(), created_at: s.dateTime() }),
    },
    create: async (use, companyId, body) => teamView(await use(AdminService).createTeam(companyId, { nome: body.nome, setorIds: body.setor_ids })),
  }),
];
