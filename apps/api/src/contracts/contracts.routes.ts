import {
  CancelContract,
  ContractStatuses,
  CreateContract,
  HandleSigningWebhook,
  ListContractTemplates,
  ManageContractTemplates,
  ReadContracts,
  SendContract,
  SimulateSignature,
  UpdateContract,
  ValidationError,
  toCents,
  type ContractStatus,
} from '@carteiro/core';
import { parseJsonOrNull, readBodyUpTo } from '../http/read-body.js';
import { adminIdParam, defineRoute, idParam, reply } from '../http/route.js';
import { pageOfCompany } from '../shared/page-of-company.js';
import { adminDeleteById, adminUpdateById } from '../shared/admin-update-by-id.js';
import { adminCreateInCompany } from '../shared/admin-create-in-company.js';
import { listOfCompany } from '../shared/list-of-company.js';
import { getById } from '../shared/get-by-id.js';
import { component, pageProperties, s, typed, type JsonSchema, type PageQuery } from '../http/schema.js';
import { contractView, sentContractView, templateView } from './contract-views.js';
import { idempotencyOf } from '../shared/idempotency-of.js';

const read = { scope: 'contracts:read' } as const;
const write = { scope: 'contracts:write' } as const;

// ---- Request schemas -------------------------------------------------------------------------

const uuid = { type: 'string', format: 'uuid' };
const money: JsonSchema = { type: ['number', 'null'], minimum: 0, maximum: 999_999_999, description: 'BRL, at most 2 decimals.' };
const variables = {
  type: 'object',
  maxProperties: 100,
  propertyNames: { pattern: '^[a-z][a-z0-9_]{0,49}$' },
  additionalProperties: { type: 'string', maxLength: 5_000 },
  description: 'Values of the template variables ({{key}}).',
};
const signers = {
  type: 'array',
  maxItems: 5,
  items: {
    type: 'object',
    required: ['name', 'phone'],
    additionalProperties: false,
    properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, phone: { type: 'string', minLength: 1, maxLength: 40 } },
  },
  description: 'Up to 5 signers besides the client.',
};

interface ContractBody {
  title: string;
  client_id: string;
  template_id?: string | null;
  variables?: Record<string, string>;
  content?: string | null;
  value?: number | null;
  opportunity_id?: string | null;
  signers?: { name: string; phone: string }[];
  expires_in_days?: number;
}

const contractFields = {
  title: { type: 'string', minLength: 1, maxLength: 200 },
  template_id: { type: ['string', 'null'], format: 'uuid', description: 'A template; its required variables must be given.' },
  variables,
  content: { type: ['string', 'null'], minLength: 1, maxLength: 100_000, description: 'The body (Markdown subset: # headings, paragraphs, - lists, **bold**) instead of a template.' },
  value: money,
  opportunity_id: { type: ['string', 'null'], format: 'uuid' },
  signers,
  expires_in_days: { type: 'integer', minimum: 1, maximum: 365, default: 30 },
};

const createSchema = typed<ContractBody>({
  type: 'object',
  required: ['title', 'client_id'],
  additionalProperties: false,
  properties: { ...contractFields, client_id: uuid },
});
const updateSchema = typed<Partial<Omit<ContractBody, 'client_id'>>>({ type: 'object', additionalProperties: false, properties: contractFields });

interface ContractListQuery extends PageQuery {
  status?: ContractStatus;
  client_id?: string;
  opportunity_id?: string;
  search?: string;
}

const sendSchema = typed<{ setor_id?: string; message?: string }>({
  type: 'object',
  additionalProperties: false,
  properties: {
    setor_id: { ...uuid, description: 'The box to send from; the company\'s connected box when omitted.' },
    message: { type: 'string', minLength: 1, maxLength: 4_096, description: 'Text sent after the PDF to each signer; must contain {{link}} (their signing link).' },
  },
});

interface TemplateBody {
  name?: string;
  description?: string | null;
  body?: string;
  variables?: { key: string; label: string; required?: boolean }[];
  active?: boolean;
}
const templateFields = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  description: { type: ['string', 'null'], maxLength: 2_000 },
  body: { type: 'string', minLength: 1, maxLength: 100_000 },
  variables: {
    type: 'array',
    maxItems: 100,
    items: {
      type: 'object',
      required: ['key', 'label'],
      additionalProperties: false,
      properties: { key: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,49}$' }, label: { type: 'string', minLength: 1, maxLength: 200 }, required: { type: 'boolean', default: true } },
    },
  },
  active: { type: 'boolean' },
};

// ---- Response schemas ------------------------------------------------------------------------

const Signer = s.object({
  id: s.uuid(),
  name: s.string(),
  phone: s.string({ description: 'Masked.' }),
  status: s.enum(['pending', 'viewed', 'signed', 'refused']),
  signed_at: s.nullableDateTime(),
  refusal_reason: s.nullableString(),
});
const Contract = component(
  'Contract',
  s.object({
    id: s.uuid(),
    title: s.string(),
    status: s.enum(ContractStatuses),
    value: { type: ['number', 'null'] },
    client: { type: ['object', 'null'], properties: { id: s.uuid(), name: s.nullableString(), phone: s.string() } },
    opportunity_id: s.nullableUuid(),
    template_id: s.nullableUuid(),
    variables: { type: 'object', additionalProperties: { type: 'string' } },
    content: s.string(),
    signers: s.array(Signer),
    document: { type: ['object', 'null'], properties: { pages: s.integer(), sha256: s.string() }, description: 'What identifies the rendered PDF (never its bytes).' },
    delivery: { type: ['object', 'null'], properties: { setor_id: s.uuid(), message_ids: s.array(s.uuid()) } },
    provider: s.nullableString(),
    expires_in_days: s.integer(),
    sent_at: s.nullableDateTime(),
    expires_at: s.nullableDateTime(),
    signed_at: s.nullableDateTime(),
    refused_at: s.nullableDateTime(),
    cancelled_at: s.nullableDateTime(),
    created_at: s.dateTime(),
    updated_at: s.dateTime(),
  }),
);
const Template = component(
  'ContractTemplate',
  s.object({
    id: s.uuid(),
    name: s.string(),
    description: s.nullableString(),
    variables: s.array(s.object({ key: s.string(), label: s.string(), required: s.boolean() })),
    body: s.string(),
    active: s.boolean(),
  }),
);

const contractId = { id: idParam('contract', 'Contract') };

/** A JSON body of at most 1 MB; anything else reads as `null` (and the provider finds no facts in it). */
async function readJson(req: AsyncIterable<unknown>): Promise<unknown> {
  const raw = await readBodyUpTo(req, 1_000_000);
  return raw === null ? null : parseJsonOrNull(raw);
}
const actorFrom = (headers: Record<string, string | undefined>) => ({ user_id: headers['x-actor-user-id'] ?? null, source: 'api' });

function templateInput(body: TemplateBody) {
  return {
    name: body.name,
    description: body.description,
    body: body.body,
    variables: body.variables?.map((v) => ({ key: v.key, label: v.label, required: v.required ?? true })),
    active: body.active,
  };
}

/** The contract routes of business.md §4, the operator's templates and simulator (§8), and the signing providers' webhook. */
export const contractsRoutes = [
  pageOfCompany({
    path: '/v1/contracts',
    auth: read,
    operationId: 'listContracts',
    summary: 'List contracts',
    tag: 'Contracts',
    query: typed<ContractListQuery>({
      type: 'object',
      additionalProperties: false,
      properties: {
        status: { type: 'string', enum: [...ContractStatuses] },
        client_id: uuid,
        opportunity_id: uuid,
        search: { type: 'string', minLength: 1, maxLength: 200, description: 'Part of the title.' },
        ...pageProperties(100),
      },
    }),
    response: { description: 'A page of contracts, newest first.', item: Contract },
    list: (use, companyId, query) => use(ReadContracts).list(
      companyId,
      { status: query.status, clientId: query.client_id, opportunityId: query.opportunity_id, search: query.search },
      { page: query.page, limit: query.limit },
    ),
    view: contractView,
  }),
  defineRoute({
    method: 'post',
    path: '/v1/contracts',
    auth: write,
    operationId: 'createContract',
    summary: 'Create a contract draft',
    description: 'From a template (`template_id` + `variables`; missing required ones: 422 `reason: missing_variables`) or from `content`. Automatic variables: {{cliente_nome}} {{empresa_nome}} {{titulo}} {{valor}} {{data}}.',
    tag: 'Contracts',
    body: { schema: createSchema, example: { title: 'Prestação de serviços', client_id: '00000000-0000-4000-8000-000000000000', content: '# Contrato\n\nEntre {{empresa_nome}} e {{cliente_nome}}, por {{valor}}.' } },
    response: { status: 201, description: 'The draft.', data: Contract },
    errors: ['NOT_FOUND', 'UNPROCESSABLE', 'INVALID_NUMBER'],
    async handler({ body, principal, use }) {
      const companyId = principal.company.id;
      const contract = await use(CreateContract).execute(companyId, {
        title: body.title,
        clientId: body.client_id,
        templateId: body.template_id,
        variables: body.variables,
        content: body.content,
        value: body.value === undefined || body.value === null ? null : toCents(body.value),
        opportunityId: body.opportunity_id,
        signers: body.signers,
        expiresInDays: body.expires_in_days,
      });
      return contractView(await use(ReadContracts).detail(companyId, contract.id));
    },
  }),
  getById({
    path: '/v1/contracts/:id', auth: read, params: contractId,
    operationId: 'getContract', summary: 'Read a contract', description: 'Sanitised: never the PDF bytes, provider tokens or signing links.', tag: 'Contracts',
    response: { description: 'The contract.', data: Contract },
    read: async (use, companyId, id) => contractView(await use(ReadContracts).detail(companyId, id)),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/contracts/:id',
    auth: write,
    operationId: 'updateContract',
    summary: 'Edit a draft',
    description: 'The POST fields but the client; only while draft (409 CONFLICT otherwise).',
    tag: 'Contracts',
    params: contractId,
    body: { schema: updateSchema, example: { title: 'Prestação de serviços — 2026', value: 1500 } },
    response: { status: 200, description: 'The draft.', data: Contract },
    errors: ['NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE', 'INVALID_NUMBER'],
    async handler({ params, body, headers, principal, use }) {
      const companyId = principal.company.id;
      await use(UpdateContract).execute(
        companyId,
        params.id,
        {
          title: body.title,
          templateId: body.template_id,
          variables: body.variables,
          content: body.content,
          value: body.value === undefined ? undefined : body.value === null ? null : toCents(body.value),
          opportunityId: body.opportunity_id,
          signers: body.signers,
          expiresInDays: body.expires_in_days,
        },
        actorFrom(headers),
      );
      return contractView(await use(ReadContracts).detail(companyId, params.id));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/contracts/:id',
    auth: write,
    operationId: 'cancelContract',
    summary: 'Cancel a contract',
    description: 'A draft or a sent contract (its envelope is cancelled at the provider); a repeat answers the same. Signed, refused or expired ones: 409 INVALID_TRANSITION.',
    tag: 'Contracts',
    params: contractId,
    response: { status: 200, description: 'Cancelled.', data: s.object({ id: s.uuid(), status: s.enum(['cancelled']), cancelled_at: s.dateTime() }) },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
    async handler({ params, headers, principal, use }) {
      const contract = await use(CancelContract).execute(principal.company.id, params.id, actorFrom(headers));
      return { id: contract.id, status: 'cancelled', cancelled_at: contract.cancelledAt!.toISOString() };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/contracts/:id/send',
    auth: write,
    operationId: 'sendContract',
    summary: 'Send a draft for signature',
    description:
      'Synchronous saga: draft → sending, PDF rendered, envelope created at the signing provider (test keys: the simulator), the PDF and then each signer\'s link sent over the company\'s channel, sent + `contract.sent`. Any failure cancels the envelope and returns the draft. 402 PLAN_LIMIT_REACHED past `contracts_per_month`; 422 when a recipient cannot receive; 502 PROVIDER_ERROR with `details.stage` signing or channel.',
    tag: 'Contracts',
    params: contractId,
    headers: {
      // Required, but checked by the handler after the body, so that a bad body is named first.
      'x-actor-user-id': { schema: { type: 'string', minLength: 1, maxLength: 200 }, description: 'Required: the user sending, `contract.sent`\'s `actor.user_id` (400 without it).' },
      'Idempotency-Key': { schema: { type: 'string' }, description: 'A repeated call within 24 hours answers the first result with `meta.idempotent_replay: true`.' },
    },
    body: { schema: sendSchema, required: false, example: { message: 'Olá {{cliente_nome}}, assine aqui: {{link}}' } },
    response: {
      status: 200,
      description: 'Sent.',
      data: s.object({
        id: s.uuid(),
        status: s.enum(['sent']),
        sent_at: s.dateTime(),
        expires_at: s.dateTime(),
        signers: s.array(s.object({ id: s.uuid(), name: s.string(), phone: s.string(), status: s.string() })),
        delivery: s.object({ setor_id: s.uuid(), message_ids: s.array(s.uuid()) }),
        duration_ms: s.integer({ minimum: 0 }),
      }),
      meta: s.object({ idempotent_replay: s.boolean() }, { description: 'Present on an idempotent replay.' }),
    },
    errors: ['NOT_FOUND', 'CONFLICT', 'PLAN_LIMIT_REACHED', 'UNPROCESSABLE', 'PROVIDER_ERROR', 'SERVICE_UNAVAILABLE', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_MISMATCH'],
    async handler({ params, body, headers, principal, res, use }) {
      const actorUserId = headers['x-actor-user-id'];
      if (!actorUserId) throw new ValidationError('The x-actor-user-id header is required', { field: 'x-actor-user-id' }, 'BAD_REQUEST');
      const idempotency = idempotencyOf(headers, principal, `/v1/contracts/${params.id}/send`, body);
      const { sent, replay } = await use(SendContract).execute(
        {
          companyId: principal.company.id,
          contractId: params.id,
          actorUserId,
          mode: principal.apiKey.mode,
          setorId: body?.setor_id,
          message: body?.message,
        },
        idempotency,
      );
      if (!replay) return sentContractView(sent);
      res.setHeader('Idempotent-Replayed', 'true');
      return reply(sentContractView(sent), { meta: { idempotent_replay: true } });
    },
  }),
  listOfCompany({
    path: '/v1/contract-templates', auth: read,
    operationId: 'listContractTemplates', summary: 'List contract templates', tag: 'Contracts',
    response: { description: 'The active templates, by name.', item: Template },
    list: (use, companyId) => use(ListContractTemplates).execute(companyId), view: templateView,
  }),
  // ---- Operator ----
  adminCreateInCompany({
    path: '/admin/v1/companies/:id/contract-templates',
    operationId: 'adminCreateContractTemplate',
    summary: 'Add a contract template',
    body: {
      schema: typed<TemplateBody & { name: string; body: string }>({ type: 'object', required: ['name', 'body'], additionalProperties: false, properties: templateFields }),
      example: { name: 'Prestação de serviços', body: '# Contrato\n\nEntre {{empresa_nome}} e {{cliente_nome}}. Prazo: {{prazo}}.', variables: [{ key: 'prazo', label: 'Prazo', required: true }] },
    },
    response: { description: 'The template.', data: Template },
    create: async (use, companyId, body) => templateView(await use(ManageContractTemplates).create(companyId, { ...templateInput(body), name: body.name, body: body.body })),
  }),
  adminUpdateById({
    path: '/admin/v1/contract-templates/:id',
    operationId: 'adminUpdateContractTemplate',
    summary: 'Change a contract template',
    record: 'contract template',
    body: { schema: typed<TemplateBody>({ type: 'object', additionalProperties: false, properties: templateFields }), example: { description: 'Modelo padrão' } },
    response: { description: 'The template.', data: Template },
    update: async (use, id, body) => templateView(await use(ManageContractTemplates).update(id, templateInput(body))),
  }),
  adminDeleteById({
    path: '/admin/v1/contract-templates/:id',
    operationId: 'adminDeactivateContractTemplate',
    summary: 'Deactivate a contract template',
    description: 'Drafts already made from it keep their text; it no longer lists nor makes new drafts.',
    record: 'contract template',
    response: { description: 'The deactivated template.', data: Template },
    remove: async (use, id) => templateView(await use(ManageContractTemplates).deactivate(id)),
  }),
  defineRoute({
    method: 'post',
    path: '/admin/v1/simulator/contracts/:id/sign',
    auth: 'admin',
    operationId: 'adminSimulatorSignContract',
    summary: 'Sign or refuse a contract in the signing simulator',
    description: 'As the simulator\'s webhook would: deduplicated (a repeat changes nothing), `contract.signed` once every signer signed, `contract.refused` on a refusal.',
    tag: 'Admin',
    params: { id: adminIdParam('contract') },
    body: {
      schema: typed<{ signer_id: string; outcome: 'signed' | 'refused'; reason?: string }>({
        type: 'object',
        required: ['signer_id', 'outcome'],
        additionalProperties: false,
        properties: { signer_id: uuid, outcome: { type: 'string', enum: ['signed', 'refused'] }, reason: { type: 'string', maxLength: 500 } },
      }),
      example: { signer_id: '00000000-0000-4000-8000-000000000000', outcome: 'signed' },
    },
    response: { status: 200, description: 'What the delivery did.', data: s.object({ received: s.integer(), applied: s.integer(), duplicates: s.integer() }) },
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT'],
    async handler({ params, body, use }) {
      return use(SimulateSignature).execute(params.id, { signerId: body.signer_id, outcome: body.outcome, reason: body.reason });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/webhooks/signing/:provider',
    auth: 'public',
    operationId: 'signingProviderWebhook',
    summary: "A signing provider's webhook",
    description: 'For the provider (ZapSign: `doc_signed`, `doc_refused`, `doc_viewed`), checked by its secret header; facts are deduplicated by event.',
    tag: 'Contracts',
    params: { provider: { schema: { type: 'string', minLength: 1, maxLength: 50 }, description: 'The provider (`zapsign`); an unknown one is 404.' } },
    body: { schema: typed<Record<string, unknown>>({ type: 'object' }), example: { event_type: 'doc_signed', token: '…' } },
    response: { status: 200, description: 'Received.', data: s.object({ received: s.integer(), applied: s.integer(), duplicates: s.integer() }) },
    errors: ['UNAUTHORIZED', 'NOT_FOUND'],
    async handler({ params, req, use }) {
      // Public routes have no JSON parser in front of them: the provider's body is read here, as sent.
      return use(HandleSigningWebhook).execute(params.provider, req.headers, req.body ?? (await readJson(req)));
    },
  }),
];
