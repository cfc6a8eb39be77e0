import { CreditKinds, GetBalance, GetLimits, ManageTeams, QuotaNames, Repositories } from '@carteiro/core';
import type { ServiceRepositories } from '@carteiro/postgres';
import { defineRoute } from '../http/route.js';
import { component, pageQuery, s } from '../http/schema.js';

const modality = s.enum(['mensal', 'avulso', 'inativo']);

/** GET /v1/limits (specification: 'GET /v1/limits'). */
const Limits = component(
  'Limits',
  s.object({
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
    quotas: s.object(
      Object.fromEntries(
        QuotaNames.map((q) => [q, s.object({ limit: s.nullableInteger(), used: s.integer({ minimum: 0 }), remaining: s.nullableInteger(), resets_at: s.nullableDateTime() })]),
      ),
      { description: 'Plan quotas: limit (null for unlimited companies), live-key usage, what remains and when the window resets (null for the pending count).' },
    ),
  }),
);

const SetorListItem = component(
  'SetorListItem',
  s.object({
    id: s.uuid(),
    nome: s.string(),
    channel_type: s.enum(['qr', 'official']),
    instance_id: s.nullableUuid(),
    status: s.enum(['disconnected', 'connecting', 'connected']),
    connected: s.boolean(),
    phone_number: s.nullableString(),
    created_at: s.dateTime(),
  }),
);

const TeamListItem = component(
  'TeamListItem',
  s.object({
    id: s.uuid(),
    nome: s.string(),
    setor_ids: s.array(s.uuid()),
    members: s.array(s.object({ agent_id: s.uuid(), name: s.string(), status: s.enum(['available', 'away', 'offline']) }), { description: 'The team’s agents (active or not), by name.' }),
    auto_assign: s.boolean({ description: 'A team-only assignment picks the available member with fewest open tickets.' }),
    max_open_per_agent: s.integer({ description: 'Auto-assignment skips members with this many open tickets.' }),
    created_at: s.dateTime(),
  }),
);

const scopeList = s.array(s.string(), { description: "The key's scopes (`*` grants every scope)." });

/** GET /v1/me: who is calling (the console reads the key's scopes here to grey out what it cannot do). */
const Me = component(
  'Me',
  s.object({
    company: s.object({ id: s.uuid(), name: s.string(), timezone: s.string() }),
    api_key: s.object({
      id: s.uuid(),
      name: s.string(),
      prefix: s.string({ description: 'The first characters of the key, safe to show.' }),
      mode: s.enum(['live', 'test']),
      scopes: scopeList,
      rpm: s.integer(),
    }),
  }),
);

/** Limits, balances and the discovery lists of setores and teams. */
export const accountRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/me',
    auth: { scope: 'credits:read' },
    operationId: 'getMe',
    summary: 'Read the calling key and its company',
    description: "The calling key (name, prefix, mode, scopes, rate limit) and its company: what a client such as the console may do with this key. The key's secret is never returned.",
    tag: 'Account',
    response: { status: 200, description: 'The calling key and its company.', data: Me },
    handler({ principal: { company, apiKey } }) {
      return {
        company: { id: company.id, name: company.name, timezone: company.timezone },
        api_key: { id: apiKey.id, name: apiKey.name, prefix: apiKey.prefix, mode: apiKey.mode, scopes: [...apiKey.scopes], rpm: apiKey.rpm },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/limits',
    auth: { scope: 'credits:read' },
    operationId: 'getLimits',
    summary: 'Read limits, capacity and balance',
    description: 'Effective limits of the company and of the calling key: daily messages, simultaneous campaigns, rate limits, safe hours and prepaid balance.',
    tag: 'Account',
    response: { status: 200, description: 'The effective limits.', data: Limits },
    async handler({ principal, use }) {
      return use(GetLimits).execute(principal);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/billing/balance',
    auth: { scope: 'credits:read' },
    operationId: 'getBalance',
    summary: 'Read prepaid balances',
    tag: 'Account',
    description:
      'The three prepaid kinds (avulso send units, assistant credits, lead credits; -1 for unlimited companies), the low-balance threshold of each (null: none) and `low[]`, the kinds at or below their threshold or at 0. `billing.low_balance` fires when a debit crosses a threshold or reaches 0, once until a payment.',
    response: {
      status: 200,
      description: 'The balances, thresholds and low kinds.',
      data: s.object({
        modality,
        unlimited: s.boolean(),
        balances: s.object({ messages: s.integer({ minimum: -1 }), ai_credits: s.integer({ minimum: -1 }), lead_credits: s.integer({ minimum: -1 }) }),
        thresholds: s.object({ messages: s.nullableInteger(), ai_credits: s.nullableInteger(), lead_credits: s.nullableInteger() }),
        low: s.array(s.enum(CreditKinds)),
      }),
    },
    handler({ principal: { company }, use }) {
      return use(GetBalance).execute(company.id);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/setores',
    auth: { scope: 'tickets:read' },
    operationId: 'listSetores',
    summary: 'List boxes (numbers)',
    description: 'The company boxes with the state of their channel instance: discovery of `setor_id`.',
    tag: 'Account',
    query: pageQuery(100),
    response: { status: 200, description: 'A page of boxes.', data: s.page(SetorListItem) },
    async handler({ query, principal: { company }, use }) {
      const repos = use<ServiceRepositories>(Repositories);
      const page = await repos.setores.listByCompany(company.id, query);
      const instances = new Map((await repos.channelInstances.listByCompany(company.id)).map((i) => [i.setorId, i]));
      return {
        ...page,
        items: page.items.map((setor) => {
          const instance = instances.get(setor.id);
          return {
            id: setor.id,
            nome: setor.nome,
            channel_type: setor.channelType,
            instance_id: instance?.id ?? null,
            status: instance?.status ?? 'disconnected',
            connected: instance?.status === 'connected',
            phone_number: instance?.phoneNumber ?? null,
            created_at: setor.createdAt.toISOString(),
          };
        }),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/teams',
    auth: { scope: 'tickets:read' },
    operationId: 'listTeams',
    summary: 'List teams',
    description: 'Teams with their boxes (for `team_id` in sends and campaigns), their members (agents) and auto-assignment settings.',
    tag: 'Account',
    query: pageQuery(100),
    response: { status: 200, description: 'A page of teams.', data: s.page(TeamListItem) },
    async handler({ query, principal: { company }, use }) {
      const page = await use(ManageTeams).list(company.id, query);
      return {
        ...page,
        items: page.items.map(({ team, members }) => ({
          id: team.id,
          nome: team.nome,
          setor_ids: team.setorIds,
          members: members.map((m) => ({ agent_id: m.agentId, name: m.name, status: m.status })),
          auto_assign: team.autoAssign,
          max_open_per_agent: team.maxOpenPerAgent,
          created_at: team.createdAt.toISOString(),
        })),
      };
    },
  }),
];
