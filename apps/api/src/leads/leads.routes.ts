import { ReadLeadSearch, SaveLeadsToCrm, StartLeadSearch, ValidateChannel, ValidateEmailMx, searchCnaes, searchMunicipios, UFS } from '@carteiro/core';
import { defineRoute, idParam } from '../http/route.js';
import { component, pageQuery, s, typed } from '../http/schema.js';
import { emailMxView, leadSearchView, savedLeadsView } from './lead-views.js';

const read = { scope: 'leads:read' } as const;
const write = { scope: 'leads:write' } as const;

const Cnae = component('LeadCnae', s.object({ code: s.string({ pattern: '^[0-9]{7}$' }), formatted: s.string({ description: '`NNNN-N/NN`.' }), description: s.string() }));
const Municipio = component('LeadMunicipio', s.object({ ibge_code: s.string({ pattern: '^[0-9]{7}$' }), name: s.string(), uf: s.string(), timezone: s.string({ description: 'IANA zone of the state.' }) }));
const Lead = component(
  'Lead',
  s.object({
    cnpj: s.string({ description: '14 characters (alphanumeric-ready).' }),
    razao_social: s.string(),
    nome_fantasia: s.nullableString(),
    cnae_principal: s.string(),
    situacao: s.string(),
    porte: s.enum(['MEI', 'ME', 'EPP', 'DEMAIS']),
    is_mei: s.boolean(),
    address: s.object({ street: s.string(), number: s.string(), district: s.string(), city: s.string(), uf: s.string(), postal_code: s.string(), ibge_code: s.string() }),
    phones: s.array(s.string()),
    email: s.nullableString(),
  }),
);

interface CnaeQuery {
  q: string;
  limit: number;
}
interface MunicipioQuery {
  q?: string;
  uf?: string;
  limit: number;
}
interface SearchBody {
  cnaes: string[];
  municipios?: string[];
  ufs?: string[];
  include_mei?: boolean;
  only_with_phone?: boolean;
  only_with_email?: boolean;
  limit?: number;
}
interface SaveBody {
  items: { cnpj: string; name?: string | null; phone?: string | null; email?: string | null }[];
  tag_ids?: string[];
  job_id?: string | null;
}
interface EmailsBody {
  emails: string[];
}
interface PhonesBody {
  phones: string[];
  setor_id: string;
}

const cnaeCode = { type: 'string', pattern: '^[0-9]{4}-?[0-9]/?[0-9]{2}$', description: 'A CNAE 2.3 subclass: 7 digits or `NNNN-N/NN`.' };
const ibgeCode = { type: 'string', pattern: '^[0-9]{7}$', description: 'An IBGE municipality code.' };

const searchSchema = typed<SearchBody>({
  type: 'object',
  required: ['cnaes'],
  additionalProperties: false,
  properties: {
    cnaes: { type: 'array', minItems: 1, maxItems: 20, items: cnaeCode },
    municipios: { type: 'array', maxItems: 50, items: ibgeCode, description: 'Or `ufs`: one of them is required.' },
    ufs: { type: 'array', maxItems: 27, items: { type: 'string', enum: [...UFS] } },
    include_mei: { type: 'boolean', default: true },
    only_with_phone: { type: 'boolean', default: false },
    only_with_email: { type: 'boolean', default: false },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'Leads wanted; each one returned costs 1 lead credit.' },
  },
});

const saveSchema = typed<SaveBody>({
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: {
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 200,
      items: {
        type: 'object',
        required: ['cnpj'],
        additionalProperties: false,
        properties: {
          cnpj: { type: 'string', minLength: 1, maxLength: 18 },
          name: { type: ['string', 'null'], maxLength: 200 },
          phone: { type: ['string', 'null'], maxLength: 40 },
          email: { type: ['string', 'null'], maxLength: 254 },
        },
      },
    },
    tag_ids: { type: 'array', maxItems: 50, items: { type: 'string', format: 'uuid' } },
    job_id: { type: ['string', 'null'], format: 'uuid', description: 'The search the leads came from (carried by `lead.saved_to_crm`).' },
  },
});

const emailsSchema = typed<EmailsBody>({
  type: 'object',
  required: ['emails'],
  additionalProperties: false,
  properties: { emails: { type: 'array', minItems: 1, maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 254 } } },
});

/** Leads (business.md §5): reference data, searches as jobs, saving to contacts, channel and e-mail checks. */
export const leadsRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/leads/cnaes',
    auth: read,
    operationId: 'searchLeadCnaes',
    summary: 'Autocomplete CNAE activities',
    description: 'CNAE 2.3 subclasses: digits match by code prefix (in code order), words by accent-free word prefixes of the description (whole-query prefix first, then words in order, then any order; shorter descriptions first).',
    tag: 'Leads',
    query: typed<CnaeQuery>({
      type: 'object',
      required: ['q'],
      properties: { q: { type: 'string', minLength: 2, maxLength: 100 }, limit: { type: 'integer', minimum: 1, maximum: 20, default: 10 } },
    }),
    validationCode: 'BAD_REQUEST',
    response: { status: 200, description: 'Matching subclasses, best first.', data: s.array(Cnae) },
    handler({ query }) {
      return searchCnaes(query.q, query.limit);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/leads/municipios',
    auth: read,
    operationId: 'searchLeadMunicipios',
    summary: 'Autocomplete IBGE municipalities',
    description: 'By IBGE code prefix or accent-free name words; `uf` narrows to one state (without `q`: its municipalities by name).',
    tag: 'Leads',
    query: typed<MunicipioQuery>({
      type: 'object',
      properties: {
        q: { type: 'string', minLength: 1, maxLength: 100 },
        uf: { type: 'string', enum: [...UFS, ...UFS.map((u) => u.toLowerCase())] },
        limit: { type: 'integer', minimum: 1, maximum: 30, default: 10 },
      },
    }),
    validationCode: 'BAD_REQUEST',
    response: { status: 200, description: 'Matching municipalities with their UF and time zone.', data: s.array(Municipio) },
    handler({ query }) {
      return searchMunicipios(query.q, query.uf, query.limit).map((m) => ({ ibge_code: m.ibgeCode, name: m.name, uf: m.uf, timezone: m.timezone }));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/leads/search',
    auth: write,
    operationId: 'startLeadSearch',
    summary: 'Search companies (a job)',
    description:
      'Queues a search of companies by activity (`cnaes`) in `municipios` or `ufs`; read the results with `GET /v1/leads/search/{jobId}` for 7 days; `lead.search_completed` when done. Each lead returned costs 1 lead credit (live keys; test keys read the sample source free). 402 PLAN_LIMIT_REACHED past the plan\'s `lead_searches_per_day`, 402 INSUFFICIENT_CREDITS with no lead credits left.',
    tag: 'Leads',
    body: { schema: searchSchema, example: { cnaes: ['5611-2/01'], municipios: ['3550308'], only_with_phone: true, limit: 50 } },
    validationCode: 'BAD_REQUEST',
    response: { status: 202, description: 'Queued.', data: s.object({ jobId: s.uuid(), status: s.enum(['queued']) }) },
    errors: ['BAD_REQUEST', 'PLAN_LIMIT_REACHED', 'INSUFFICIENT_CREDITS'],
    async handler({ body, principal, use }) {
      const search = await use(StartLeadSearch).execute(principal.company.id, principal.apiKey, {
        cnaes: body.cnaes,
        municipios: body.municipios ?? [],
        ufs: body.ufs ?? [],
        includeMei: body.include_mei ?? true,
        onlyWithPhone: body.only_with_phone ?? false,
        onlyWithEmail: body.only_with_email ?? false,
        limit: body.limit ?? 100,
      });
      return { jobId: search.id, status: 'queued' };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/leads/search/:jobId',
    auth: read,
    operationId: 'getLeadSearch',
    summary: 'Read a lead search and its leads',
    description: 'The status (queued/running/completed/failed), counts and a page of leads; kept 7 days.',
    tag: 'Leads',
    params: { jobId: idParam('lead search', 'Lead search') },
    query: pageQuery(100, 50),
    response: {
      status: 200,
      description: 'The search.',
      data: s.object({
        id: s.uuid(),
        status: s.enum(['queued', 'running', 'completed', 'failed']),
        source: s.string(),
        total: s.integer({ minimum: 0 }),
        returned: s.integer({ minimum: 0 }),
        credits_used: s.integer({ minimum: 0 }),
        dataset_month: s.nullableString({ description: '`YYYY-MM` of the data read.' }),
        error: s.nullableString(),
        created_at: s.dateTime(),
        completed_at: s.nullableDateTime(),
        expires_at: s.dateTime(),
        items: s.array(Lead),
        page: s.integer({ minimum: 1 }),
        limit: s.integer({ minimum: 1 }),
        totalPages: s.integer({ minimum: 0 }),
      }),
    },
    errors: ['NOT_FOUND'],
    async handler({ params, query, principal, use }) {
      const { search, items } = await use(ReadLeadSearch).execute(principal.company.id, params.jobId, query);
      return leadSearchView(search, items);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/leads/save-to-crm',
    auth: write,
    operationId: 'saveLeadsToCrm',
    summary: 'Save leads as contacts',
    description: 'Upserts up to 200 contacts by phone in one transaction, fill-only (a name or e-mail already there is kept), with `tag_ids` added; leads without a valid phone are skipped. `lead.saved_to_crm`.',
    tag: 'Leads',
    body: { schema: saveSchema, example: { items: [{ cnpj: '11222333000181', name: 'Padaria Aurora', phone: '+5511987654321', email: 'contato@padariaaurora.com.br' }] } },
    validationCode: 'BAD_REQUEST',
    response: {
      status: 200,
      description: 'What happened to each lead, in order.',
      data: s.object({
        created: s.integer({ minimum: 0 }),
        updated: s.integer({ minimum: 0 }),
        skipped: s.integer({ minimum: 0 }),
        results: s.array(
          s.object({
            cnpj: s.string(),
            phone: s.nullableString(),
            status: s.enum(['created', 'updated', 'skipped']),
            contact_id: s.nullableUuid(),
            filled: s.array(s.string()),
            reason: s.nullableString({ description: '`no_phone`, `invalid_phone` or `duplicate` when skipped.' }),
          }),
        ),
      }),
    },
    errors: ['BAD_REQUEST', 'NOT_FOUND'],
    async handler({ body, principal, use }) {
      return savedLeadsView(await use(SaveLeadsToCrm).execute(principal.company, body.items, body.tag_ids ?? [], body.job_id ?? null));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/leads/validate-channel',
    auth: write,
    operationId: 'validateLeadPhones',
    summary: 'Check which phones have an account on the channel',
    description:
      "Asked through the box's connected session (`setor_id`): the QR provider checks 50 numbers a call, 1 s apart; the official Cloud API cannot tell (`has_channel` null); test keys ask the simulator (numbers ending in 0001 have no account). Live answers are cached 7 days per box (`reason` cached).",
    tag: 'Leads',
    body: {
      schema: typed<PhonesBody>({
        type: 'object',
        required: ['phones', 'setor_id'],
        additionalProperties: false,
        properties: {
          phones: { type: 'array', minItems: 1, maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 40 } },
          setor_id: { type: 'string', format: 'uuid' },
        },
      }),
      example: { phones: ['+5511987654321', '+5511987650001'], setor_id: '3f0c2a9e-8d1b-4c3e-9a7f-2b6d5e4c1a00' },
    },
    validationCode: 'BAD_REQUEST',
    response: {
      status: 200,
      description: 'One result per phone, in order.',
      data: s.object({
        results: s.array(
          s.object({
            input: s.string(),
            phone: s.nullableString({ description: 'E.164; null when the input is not a phone number.' }),
            has_channel: { type: ['boolean', 'null'] },
            reason: s.enum(['checked', 'cached', 'provider_cannot_tell', 'invalid_number']),
          }),
        ),
      }),
    },
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'PROVIDER_ERROR'],
    async handler({ body, principal, use }) {
      const results = await use(ValidateChannel).execute(principal.company, body.setor_id, body.phones, principal.apiKey.mode);
      return { results: results.map((r) => ({ input: r.input, phone: r.phone, has_channel: r.hasChannel, reason: r.reason })) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/leads/validate-email-mx',
    auth: write,
    operationId: 'validateLeadEmails',
    summary: 'Check e-mail domains (MX)',
    description:
      'Per domain: NXDOMAIN → undeliverable `no_domain`; MX "." → undeliverable `null_mx` (RFC 7505); MX records → deliverable; only A/AAAA → deliverable with `implicit_mx` (RFC 5321); no answer in time → unknown. Test keys: `*.invalid`, `nullmx.test`, `nomx.test` (implicit MX) and `timeout.test` answer those cases, every other domain is deliverable.',
    tag: 'Leads',
    body: { schema: emailsSchema, example: { emails: ['contato@example.com.br', 'vendas@nullmx.test'] } },
    validationCode: 'BAD_REQUEST',
    response: {
      status: 200,
      description: 'One result per e-mail, in order.',
      data: s.object({
        results: s.array(
          s.object({
            email: s.string(),
            status: s.enum(['deliverable', 'undeliverable', 'unknown']),
            mx: s.array(s.string()),
            implicit_mx: s.boolean(),
            reason: s.string(),
          }),
        ),
      }),
    },
    errors: ['BAD_REQUEST'],
    async handler({ body, principal, use }) {
      return { results: (await use(ValidateEmailMx).execute(body.emails, principal.apiKey.mode)).map(emailMxView) };
    },
  }),
];
