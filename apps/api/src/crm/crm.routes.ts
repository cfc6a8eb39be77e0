import {
  CreateOpportunity,
  CreateProduct,
  DeleteOpportunity,
  ListFunnelStages,
  ListProducts,
  ManageFunnelStages,
  MoveOpportunityStage,
  OpportunityStatuses,
  ReadOpportunities,
  UpdateOpportunity,
  ValidationError,
  toCents,
  type EventActor,
  type OpportunityFilter,
  type ProductLineInput,
} from '@carteiro/core';
import { adminIdParam, defineRoute, idParam, reply } from '../http/route.js';
import { pageOfCompany } from '../shared/page-of-company.js';
import { adminDeleteById, adminUpdateById } from '../shared/admin-update-by-id.js';
import { adminCreateInCompany } from '../shared/admin-create-in-company.js';
import { listOfCompany } from '../shared/list-of-company.js';
import { getById } from '../shared/get-by-id.js';
import { component, pageProperties, s, typed, type JsonSchema, type PageQuery } from '../http/schema.js';
import { opportunityDetailView, opportunityView, productView, stageView } from './crm-views.js';
import { idempotencyOf } from '../shared/idempotency-of.js';

const read = { scope: 'crm:read' } as const;
const write = { scope: 'crm:write' } as const;

// ---- Request schemas -------------------------------------------------------------------------

/** BRL as a JSON number with at most two decimals (more: 400, checked by `toCents`). */
const money = (description: string): JsonSchema => ({ type: 'number', minimum: 0, maximum: 999_999_999, description });
const nullableMoney = (description: string): JsonSchema => ({ type: ['number', 'null'], minimum: 0, maximum: 999_999_999, description });
const uuid = { type: 'string', format: 'uuid' };
const nullableUuid = { type: ['string', 'null'], format: 'uuid' };
const date = { type: ['string', 'null'], format: 'date', description: '`YYYY-MM-DD`.' };

const productLine = {
  type: 'object',
  required: ['product_id'],
  additionalProperties: false,
  properties: {
    product_id: uuid,
    quantity: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
    unit_price: money('Price of one unit; the catalogue price when omitted.'),
    discount_percent: { type: 'number', minimum: 0, maximum: 100, default: 0 },
  },
};
const productLines = { type: 'array', maxItems: 50, items: productLine, description: 'Replaces every line.' };

interface ProductLineBody {
  product_id: string;
  quantity: number;
  unit_price?: number;
  discount_percent?: number;
}

interface OpportunityBody {
  title: string;
  client_id?: string;
  phone?: string;
  name?: string;
  stage_id?: string;
  value?: number;
  products?: ProductLineBody[];
  assignee_id?: string | null;
  ticket_id?: string | null;
  description?: string | null;
  expected_close_date?: string | null;
  lost_reason?: string | null;
}

const createOpportunitySchema = typed<OpportunityBody>({
  type: 'object',
  required: ['title'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200 },
    client_id: { ...uuid, description: 'An existing contact; or `phone` (+ `name`) to find or create one.' },
    phone: { type: 'string', minLength: 1, maxLength: 40 },
    name: { type: 'string', maxLength: 200 },
    stage_id: { ...uuid, description: 'The first open stage when omitted.' },
    value: money('The deal value; `products_total` when omitted.'),
    products: productLines,
    assignee_id: nullableUuid,
    ticket_id: { ...nullableUuid, description: 'A ticket to link (stored as given until the tickets area exists).' },
    description: { type: ['string', 'null'], maxLength: 10_000 },
    expected_close_date: date,
    lost_reason: { type: ['string', 'null'], maxLength: 500, description: 'Kept when created in a lost stage.' },
  },
});

type OpportunityPatchBody = Partial<Omit<OpportunityBody, 'value'>> & { value?: number | null; stage_id?: never };

const updateOpportunitySchema = typed<OpportunityPatchBody>({
  type: 'object',
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200 },
    value: nullableMoney('null: back to `products_total`.'),
    assignee_id: nullableUuid,
    products: productLines,
    description: { type: ['string', 'null'], maxLength: 10_000 },
    expected_close_date: date,
  },
});

const moveSchema = typed<{ stage_id: string; lost_reason?: string }>({
  type: 'object',
  required: ['stage_id'],
  additionalProperties: false,
  properties: { stage_id: uuid, lost_reason: { type: 'string', maxLength: 500 } },
});

interface OpportunityListQuery extends PageQuery {
  stage_id?: string;
  assignee_id?: string;
  client_id?: string;
  include_closed?: boolean;
  status?: 'open' | 'won' | 'lost';
  q?: string;
}

const filterProperties = {
  stage_id: uuid,
  assignee_id: { type: 'string', pattern: '^(none|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$', description: 'A user id, or `none` for unassigned.' },
  client_id: uuid,
  include_closed: { type: 'boolean', default: false, description: 'Without `status`, won and lost ones are left out unless true.' },
  status: { type: 'string', enum: [...OpportunityStatuses] },
  q: { type: 'string', minLength: 1, maxLength: 200, description: 'Part of the title.' },
};

const listQuery = typed<OpportunityListQuery>({ type: 'object', additionalProperties: false, properties: { ...filterProperties, ...pageProperties(100) } });
const countQuery = typed<Omit<OpportunityListQuery, 'page' | 'limit'>>({ type: 'object', additionalProperties: false, properties: filterProperties });

interface ProductBody {
  name: string;
  price: number;
  sku?: string | null;
  unit?: string | null;
  description?: string | null;
  active?: boolean;
}

const createProductSchema = typed<ProductBody>({
  type: 'object',
  required: ['name', 'price'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    price: money('Unit price.'),
    sku: { type: ['string', 'null'], maxLength: 100 },
    unit: { type: ['string', 'null'], maxLength: 50 },
    description: { type: ['string', 'null'], maxLength: 5_000 },
    active: { type: 'boolean', default: true },
  },
});

interface StageBody {
  name?: string;
  position?: number;
  is_won?: boolean;
  is_lost?: boolean;
  win_probability?: number;
  color?: string | null;
}

const stageProperties = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  position: { type: 'integer', minimum: 1, maximum: 100, description: 'Place in the funnel (others shift).' },
  is_won: { type: 'boolean' },
  is_lost: { type: 'boolean' },
  win_probability: { type: 'integer', minimum: 0, maximum: 100 },
  color: { type: ['string', 'null'], pattern: '^#[0-9a-fA-F]{6}$' },
};
const createStageSchema = typed<StageBody & { name: string }>({ type: 'object', required: ['name'], additionalProperties: false, properties: stageProperties });
const updateStageSchema = typed<StageBody>({ type: 'object', additionalProperties: false, properties: stageProperties });

// ---- Response schemas ------------------------------------------------------------------------

const Stage = component(
  'CrmStage',
  s.object({
    id: s.uuid(),
    name: s.string(),
    position: s.integer({ minimum: 1 }),
    is_won: s.boolean(),
    is_lost: s.boolean(),
    win_probability: s.integer({ minimum: 0, maximum: 100 }),
    color: s.nullableString(),
  }),
);

const Product = component(
  'CrmProduct',
  s.object({
    id: s.uuid(),
    name: s.string(),
    price: s.number(),
    sku: s.nullableString(),
    unit: s.nullableString(),
    description: s.nullableString(),
    active: s.boolean(),
    created_at: s.dateTime(),
    updated_at: s.dateTime(),
  }),
);

const Client = s.object({ id: s.uuid(), name: s.nullableString(), phone: s.string() });
const ProductLine = s.object({
  product_id: s.uuid(),
  name: s.string(),
  quantity: s.integer(),
  unit_price: s.number(),
  discount_percent: s.number(),
  total: s.number(),
});

const opportunityFields = {
  id: s.uuid(),
  title: s.string(),
  value: s.number({ description: 'The value set, else `products_total`.' }),
  products_total: s.number(),
  status: s.enum(OpportunityStatuses),
  stage: { type: ['object', 'null'], properties: { id: s.uuid(), name: s.string(), position: s.integer(), is_won: s.boolean(), is_lost: s.boolean() } },
  win_probability: s.nullableInteger(),
  client: { ...Client, type: ['object', 'null'] },
  assignee_id: s.nullableUuid(),
  ticket_id: s.nullableUuid({ description: 'The linked ticket (tickets show the link as `links.crm_opportunities` once that area exists).' }),
  description: s.nullableString(),
  expected_close_date: s.nullableString({ format: 'date' }),
  lost_reason: s.nullableString(),
  closed_at: s.nullableDateTime(),
  products: s.array(ProductLine),
  created_at: s.dateTime(),
  updated_at: s.dateTime(),
};
const Opportunity = component('CrmOpportunity', s.object(opportunityFields));
const OpportunityDetail = component(
  'CrmOpportunityDetail',
  s.object({
    ...opportunityFields,
    history: s.array(
      s.object({
        at: s.dateTime(),
        actor: s.object({ user_id: s.nullableString(), source: s.string() }),
        kind: s.enum(['created', 'updated', 'stage_changed', 'won', 'lost', 'deleted']),
        changes: { type: 'object', additionalProperties: s.object({ from: {}, to: {} }), description: 'field → { from, to }' },
      }),
      { description: 'The last 100 changes, newest first.' },
    ),
  }),
);

// ---- Helpers ---------------------------------------------------------------------------------

const actorHeader = {
  'x-actor-user-id': { schema: { type: 'string', minLength: 1, maxLength: 200 }, description: 'The user acting, recorded in the history and events.' },
};

function actorOf(headers: Record<string, string | undefined>): EventActor {
  return { user_id: headers['x-actor-user-id'] ?? null, source: 'api' };
}

function lines(body: ProductLineBody[] | undefined): ProductLineInput[] | undefined {
  return body?.map((l, i) => ({
    productId: l.product_id,
    quantity: l.quantity ?? 1,
    unitPrice: l.unit_price === undefined ? undefined : toCents(l.unit_price, `products[${i}].unit_price`),
    discountPercent: l.discount_percent === undefined ? 0 : l.discount_percent,
  }));
}

function filterOf(query: Omit<OpportunityListQuery, 'page' | 'limit'>): OpportunityFilter {
  return {
    stageId: query.stage_id,
    assigneeId: query.assignee_id === 'none' ? null : query.assignee_id?.toLowerCase(),
    clientId: query.client_id,
    includeClosed: query.include_closed,
    status: query.status,
    q: query.q,
  };
}

const opportunityId = { id: idParam('opportunity', 'Opportunity') };
const idempotencyHeader = {
  'Idempotency-Key': {
    schema: { type: 'string' },
    description: 'A unique key (a UUID) per request: a repeated call within 24 hours returns the first answer with `meta.idempotent_replay: true` and creates nothing.',
  },
};

/** The CRM routes of business.md §3 and the operator's funnel routes (§8). */
export const crmRoutes = [
  listOfCompany({
    path: '/v1/crm/stages', auth: read,
    operationId: 'listCrmStages', summary: 'List the funnel stages', description: 'One funnel per company: exactly one won stage, at least one lost and one open. Seeded with Novo, Qualificado, Proposta, Negociação, Ganho, Perdido.', tag: 'CRM',
    response: { description: 'The stages by position.', item: Stage },
    list: (use, companyId) => use(ListFunnelStages).execute(companyId), view: stageView,
  }),
  pageOfCompany({
    path: '/v1/crm/opportunities',
    auth: read,
    operationId: 'listCrmOpportunities',
    summary: 'List opportunities',
    tag: 'CRM',
    query: listQuery,
    response: { description: 'A page of opportunities, newest first.', item: Opportunity },
    list: (use, companyId, query) => use(ReadOpportunities).list(companyId, filterOf(query), { page: query.page, limit: query.limit }),
    view: opportunityView,
  }),
  defineRoute({
    method: 'get',
    path: '/v1/crm/opportunities/count',
    auth: read,
    operationId: 'countCrmOpportunities',
    summary: 'Count opportunities',
    description: 'The same filters as the list: how many match and the sum of their values.',
    tag: 'CRM',
    query: countQuery,
    response: { status: 200, description: 'Count and value total.', data: s.object({ count: s.integer({ minimum: 0 }), value_total: s.number() }) },
    async handler({ query, principal, use }) {
      const { count, valueTotal } = await use(ReadOpportunities).count(principal.company.id, filterOf(query));
      return { count, value_total: valueTotal / 100 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/crm/opportunities',
    auth: write,
    operationId: 'createCrmOpportunity',
    summary: 'Create an opportunity',
    description: 'Emits `opportunity.created` (then `opportunity.won`/`.lost` when created in a final stage).',
    tag: 'CRM',
    headers: { ...idempotencyHeader, ...actorHeader },
    body: { schema: createOpportunitySchema, example: { title: 'Site institucional', phone: '+5511987654321', name: 'Ana', value: 4500 } },
    response: {
      status: 201,
      description: 'Created.',
      data: OpportunityDetail,
      meta: s.object({ idempotent_replay: s.boolean() }, { description: 'Present on an idempotent replay.' }),
    },
    errors: ['NOT_FOUND', 'UNPROCESSABLE', 'INVALID_NUMBER', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_MISMATCH'],
    async handler({ body, headers, principal, res, use }) {
      if (!body.client_id && !body.phone) throw new ValidationError('client_id or phone is required', { field: 'client_id' });
      const idempotency = idempotencyOf(headers, principal, '/v1/crm/opportunities', body);
      const companyId = principal.company.id;
      const { id, replay } = await use(CreateOpportunity).execute(
        companyId,
        {
          title: body.title,
          client: { clientId: body.client_id, phone: body.phone, name: body.name },
          stageId: body.stage_id,
          value: body.value === undefined ? undefined : toCents(body.value),
          products: lines(body.products),
          assigneeId: body.assignee_id,
          ticketId: body.ticket_id,
          description: body.description,
          expectedCloseDate: body.expected_close_date,
          lostReason: body.lost_reason,
        },
        actorOf(headers),
        idempotency,
      );
      const view = opportunityDetailView(await use(ReadOpportunities).detail(companyId, id));
      if (!replay) return view;
      res.setHeader('Idempotent-Replayed', 'true');
      return reply(view, { meta: { idempotent_replay: true }, status: 201 });
    },
  }),
  getById({
    path: '/v1/crm/opportunities/:id', auth: read, params: opportunityId,
    operationId: 'getCrmOpportunity', summary: 'Read an opportunity', tag: 'CRM',
    response: { description: 'The opportunity with its last 100 changes.', data: OpportunityDetail },
    read: async (use, companyId, id) => opportunityDetailView(await use(ReadOpportunities).detail(companyId, id)),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/crm/opportunities/:id',
    auth: write,
    operationId: 'updateCrmOpportunity',
    summary: 'Edit an opportunity',
    description: '`products` replaces every line. The stage changes only through move-stage (`stage_id` here is a 400).',
    tag: 'CRM',
    params: opportunityId,
    headers: actorHeader,
    body: { schema: updateOpportunitySchema, example: { value: 5000, assignee_id: null } },
    response: { status: 200, description: 'The opportunity.', data: OpportunityDetail },
    errors: ['NOT_FOUND'],
    async handler({ params, body, headers, principal, use }) {
      const companyId = principal.company.id;
      await use(UpdateOpportunity).execute(
        companyId,
        params.id,
        {
          title: body.title,
          value: body.value === undefined ? undefined : body.value === null ? null : toCents(body.value),
          assigneeId: body.assignee_id,
          products: lines(body.products),
          description: body.description,
          expectedCloseDate: body.expected_close_date,
        },
        actorOf(headers),
      );
      return opportunityDetailView(await use(ReadOpportunities).detail(companyId, params.id));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/crm/opportunities/:id/move-stage',
    auth: write,
    operationId: 'moveCrmOpportunityStage',
    summary: 'Move an opportunity to another stage',
    description:
      'Under the opportunity\'s row lock: the won stage wins it (`opportunity.won`), a lost stage loses it (`opportunity.lost`, with `lost_reason`), an open stage moves it (reopening a closed one, no event). The same stage is 409 INVALID_TRANSITION.',
    tag: 'CRM',
    params: opportunityId,
    headers: actorHeader,
    body: { schema: moveSchema, example: { stage_id: '00000000-0000-4000-8000-000000000000' } },
    response: {
      status: 200,
      description: 'The outcome.',
      data: s.object({ result: s.enum(['won', 'lost', 'stage_changed']), previous_stage_id: s.uuid(), closed: s.boolean(), opportunity: Opportunity }),
    },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
    async handler({ params, body, headers, principal, use }) {
      const companyId = principal.company.id;
      const moved = await use(MoveOpportunityStage).execute(companyId, params.id, { stageId: body.stage_id, lostReason: body.lost_reason }, actorOf(headers));
      const detail = await use(ReadOpportunities).detail(companyId, params.id);
      return { result: moved.result, previous_stage_id: moved.previousStageId, closed: moved.closed, opportunity: opportunityView(detail) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/crm/opportunities/:id',
    auth: write,
    operationId: 'deleteCrmOpportunity',
    summary: 'Delete an opportunity',
    description: 'Soft: it no longer reads, lists or counts; its history stays.',
    tag: 'CRM',
    params: opportunityId,
    headers: actorHeader,
    response: { status: 200, description: 'Deleted.', data: s.object({ deleted: s.boolean({ const: true }), id: s.uuid() }) },
    errors: ['NOT_FOUND'],
    async handler({ params, headers, principal, use }) {
      await use(DeleteOpportunity).execute(principal.company.id, params.id, actorOf(headers));
      return { deleted: true, id: params.id };
    },
  }),
  pageOfCompany({
    path: '/v1/crm/products',
    auth: read,
    operationId: 'listCrmProducts',
    summary: 'List the product catalogue',
    tag: 'CRM',
    query: typed<PageQuery & { q?: string; active?: boolean }>({
      type: 'object',
      additionalProperties: false,
      properties: { q: { type: 'string', minLength: 1, maxLength: 200, description: 'Part of the name or SKU.' }, active: { type: 'boolean' }, ...pageProperties(100) },
    }),
    response: { description: 'A page of products by name.', item: Product },
    list: (use, companyId, query) => use(ListProducts).execute(companyId, { q: query.q, active: query.active }, { page: query.page, limit: query.limit }),
    view: productView,
  }),
  defineRoute({
    method: 'post',
    path: '/v1/crm/products',
    auth: write,
    operationId: 'createCrmProduct',
    summary: 'Add a product',
    description: 'Names and SKUs are unique in the company (case-insensitive): a duplicate is 409 CONFLICT with `details.field`.',
    tag: 'CRM',
    body: { schema: createProductSchema, example: { name: 'Site institucional', price: 1500, sku: 'SITE-01', unit: 'un' } },
    response: { status: 201, description: 'Created.', data: Product },
    errors: ['CONFLICT'],
    async handler({ body, principal, use }) {
      return productView(await use(CreateProduct).execute(principal.company.id, { ...body, price: toCents(body.price, 'price') }));
    },
  }),
  // ---- Operator: the funnel ----
  defineRoute({
    method: 'get',
    path: '/admin/v1/companies/:id/crm/stages',
    auth: 'admin',
    operationId: 'adminListCrmStages',
    summary: "List a company's funnel stages",
    tag: 'Admin',
    params: { id: adminIdParam('company') },
    response: { status: 200, description: 'The stages by position.', data: s.array(Stage) },
    errors: ['BAD_REQUEST'],
    async handler({ params, use }) {
      return (await use(ListFunnelStages).execute(params.id)).map(stageView);
    },
  }),
  adminCreateInCompany({
    path: '/admin/v1/companies/:id/crm/stages',
    operationId: 'adminCreateCrmStage',
    summary: 'Add a funnel stage',
    description: 'The funnel keeps exactly one won stage, at least one lost and one open: a change breaking that is 409 CONFLICT with `details.invariant`.',
    body: { schema: createStageSchema, example: { name: 'Demonstração', position: 3, win_probability: 50 } },
    response: { description: 'The stage.', data: Stage },
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT'],
    create: async (use, companyId, body) =>
      stageView(await use(ManageFunnelStages).create(companyId, stageInput(body) as ReturnType<typeof stageInput> & { name: string })),
  }),
  adminUpdateById({
    path: '/admin/v1/crm/stages/:id',
    operationId: 'adminUpdateCrmStage',
    summary: 'Change a funnel stage',
    record: 'stage',
    body: { schema: updateStageSchema, example: { name: 'Fechado', color: '#16a34a' } },
    response: { description: 'The stage.', data: Stage },
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT'],
    update: async (use, id, body) => stageView(await use(ManageFunnelStages).updateById(id, stageInput(body))),
  }),
  adminDeleteById({
    path: '/admin/v1/crm/stages/:id',
    operationId: 'adminDeleteCrmStage',
    summary: 'Delete a funnel stage',
    description: 'A stage any opportunity is or was in is 409 CONFLICT (`invariant: stage_in_use`).',
    record: 'stage',
    response: { description: 'Deleted.', data: s.object({ deleted: s.boolean({ const: true }), id: s.uuid() }) },
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT'],
    remove: (use, id) => use(ManageFunnelStages).deleteById(id),
  }),
];

function stageInput(body: StageBody) {
  return { name: body.name, position: body.position, isWon: body.is_won, isLost: body.is_lost, winProbability: body.win_probability, color: body.color };
}
