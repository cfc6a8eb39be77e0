import { AdminService, AgentStatuses, ManageAgents, ManageQuickReplies, ManageTeams, MediaTypes, type AgentStatus } from '@carteiro/core';
import { adminIdParam, defineRoute, idParam } from '../http/route.js';
import { pageOfCompany } from '../shared/page-of-company.js';
import { adminDeleteById, adminUpdateById } from '../shared/admin-update-by-id.js';
import { adminCreateInCompany } from '../shared/admin-create-in-company.js';
import { companyPageRoute } from '../shared/company-page-route.js';
import { component, pageProperties, s, typed, type PageQuery } from '../http/schema.js';
import { TeamWithMembersSchema, agentView, quickReplyView, teamWithMembersView } from './agent-views.js';

const read = { scope: 'tickets:read' } as const;
const write = { scope: 'tickets:write' } as const;
const admin = 'admin' as const;

// ---- Schemas -----------------------------------------------------------------------------------

const Agent = component(
  'Agent',
  s.object({
    id: s.uuid(),
    name: s.string(),
    email: s.string(),
    status: s.enum(AgentStatuses),
    active: s.boolean(),
    team_ids: s.array(s.uuid()),
    open_tickets: s.integer({ minimum: 0, description: 'Tickets assigned to the agent that are not closed.' }),
  }),
);
const AgentStatusChange = s.object({ ...(Agent.properties as Record<string, Record<string, unknown>>), changed: s.boolean({ description: 'false: the agent already had that status (nothing ran).' }) });

const QuickReply = component(
  'QuickReply',
  s.object({
    id: s.uuid(),
    shortcut: s.string(),
    title: s.string(),
    text: s.nullableString(),
    media_url: s.nullableString(),
    media_type: { type: ['string', 'null'], enum: [...MediaTypes, null] },
    setor_id: s.nullableUuid({ description: 'null: company-wide.' }),
    placeholders: s.array(s.string(), { description: 'Placeholders the text uses, e.g. ["primeiro_nome"].' }),
    created_at: s.dateTime(),
    updated_at: s.dateTime(),
  }),
);

const agentProps = {
  name: s.string({ minLength: 1, maxLength: 100 }),
  email: s.string({ format: 'email', maxLength: 254, description: 'Unique per company ignoring case (409 CONFLICT `details.agent_id`).' }),
  team_ids: s.array(s.uuid(), { uniqueItems: true, maxItems: 100, description: 'Teams of the agent (replace-all).' }),
  status: s.enum(AgentStatuses),
  active: s.boolean({ description: 'false deactivates: the agent leaves auto-assignment and their open tickets return to the queue.' }),
};
interface AgentBody {
  name?: string;
  email?: string;
  team_ids?: string[];
  status?: AgentStatus;
  active?: boolean;
}
const agentInput = (b: AgentBody) => ({ name: b.name, email: b.email, teamIds: b.team_ids?.map((id) => id.toLowerCase()), status: b.status, active: b.active });

const agentFilters = {
  team_id: s.uuid({ description: 'Members of this team.' }),
  status: s.enum(AgentStatuses),
};
interface AgentQuery extends PageQuery {
  team_id?: string;
  status?: AgentStatus;
  active?: boolean;
}

const teamProps = {
  nome: s.string({ minLength: 1, maxLength: 200 }),
  setor_ids: s.array(s.uuid(), { uniqueItems: true, maxItems: 1000, description: 'Boxes of the team (replace-all, in rotation order).' }),
  agent_ids: s.array(s.uuid(), { uniqueItems: true, maxItems: 500, description: 'Members (replace-all).' }),
  auto_assign: s.boolean(),
  max_open_per_agent: s.integer({ minimum: 1, maximum: 1000, description: 'Default 10.' }),
};
interface TeamBody {
  nome?: string;
  setor_ids?: string[];
  agent_ids?: string[];
  auto_assign?: boolean;
  max_open_per_agent?: number;
}

const quickReplyProps = {
  shortcut: s.string({ pattern: '^[a-z0-9_-]{1,32}$', description: 'Unique per scope (company-wide or the box): 409 CONFLICT `details.quick_reply_id`.' }),
  title: s.string({ minLength: 1, maxLength: 100 }),
  text: s.nullableString({ maxLength: 4096, description: 'Placeholders {{nome}} {{primeiro_nome}} {{protocolo}} {{atendente}}; another one is a 400.' }),
  media_url: s.nullableString({ maxLength: 2048, description: 'HTTPS URL; needs media_type.' }),
  media_type: { type: ['string', 'null'], enum: [...MediaTypes, null] },
  setor_id: s.nullableUuid({ description: 'null (default): company-wide.' }),
};
interface QuickReplyBody {
  shortcut?: string;
  title?: string;
  text?: string | null;
  media_url?: string | null;
  media_type?: string | null;
  setor_id?: string | null;
}
const quickReplyInput = (b: QuickReplyBody) => ({
  shortcut: b.shortcut,
  title: b.title,
  text: b.text,
  mediaUrl: b.media_url,
  mediaType: b.media_type,
  setorId: b.setor_id === undefined || b.setor_id === null ? b.setor_id : b.setor_id.toLowerCase(),
});

const companyId = { id: adminIdParam('company') };

/** A page of a company's agents chosen by the filters of `AgentQuery`, with their open tickets (GET /v1/agents and the operator's list). */
async function agentsPage(agents: ManageAgents, companyId: string, query: AgentQuery) {
  const page = await agents.list(companyId, { teamId: query.team_id?.toLowerCase(), status: query.status, active: query.active }, { page: query.page, limit: query.limit });
  return { ...page, items: page.items.map((x) => agentView(x.agent, x.openTickets)) };
}

// ---- Routes ------------------------------------------------------------------------------------

/** Agents, team members and settings, quick replies (conversations.md §6, §9). */
export const agentsRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/agents',
    auth: read,
    operationId: 'listAgents',
    summary: 'List agents',
    description: 'Agents by name with their teams and open tickets. `active` defaults to true.',
    tag: 'Agents',
    query: typed<AgentQuery>({
      type: 'object',
      properties: { ...agentFilters, active: s.boolean({ default: true }), ...pageProperties(100) },
    }),
    response: { status: 200, description: 'A page of agents.', data: s.page(Agent) },
    async handler({ query, principal, use }) {
      return agentsPage(use(ManageAgents), principal.company.id, query);
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/agents/:id/status',
    auth: write,
    operationId: 'setAgentStatus',
    summary: 'Set an agent’s availability',
    description: 'An agent becoming `available` gets their auto-assign teams’ oldest queued tickets (up to each team’s cap).',
    tag: 'Agents',
    params: { id: idParam('agent', 'Agent') },
    body: {
      schema: typed<{ status: AgentStatus }>({ type: 'object', required: ['status'], additionalProperties: false, properties: { status: s.enum(AgentStatuses) } }),
      example: { status: 'available' },
    },
    response: { status: 200, description: 'The agent.', data: AgentStatusChange },
    errors: ['NOT_FOUND'],
    async handler({ params, body, principal, use }) {
      const agents = use(ManageAgents);
      const { agent, changed } = await agents.setStatus(principal.company.id, params.id, body.status);
      const [loaded] = await agents.withOpenTickets(principal.company.id, [agent]);
      return { ...agentView(agent, loaded?.openTickets ?? 0), changed };
    },
  }),
  pageOfCompany({
    path: '/v1/quick-replies',
    auth: read,
    operationId: 'listQuickReplies',
    summary: 'List quick replies',
    description: 'By shortcut. With `setor_id`: the company-wide replies and that box’s.',
    tag: 'Agents',
    query: typed<PageQuery & { setor_id?: string; q?: string }>({
      type: 'object',
      properties: {
        setor_id: s.uuid(),
        q: s.string({ minLength: 1, maxLength: 100, description: 'Part of the shortcut, title or text, any case.' }),
        ...pageProperties(100),
      },
    }),
    response: { description: 'A page of quick replies.', item: QuickReply },
    list: (use, companyId, query) => use(ManageQuickReplies).list(
      companyId,
      { setorId: query.setor_id?.toLowerCase(), q: query.q },
      { page: query.page, limit: query.limit },
    ),
    view: quickReplyView,
  }),

  // ---- Operator ----
  adminCreateInCompany({
    path: '/admin/v1/companies/:id/agents',
    operationId: 'adminCreateAgent',
    summary: 'Create an agent',
    description: 'At most 500 per company (422). New agents are `offline` unless a status is given.',
    body: {
      schema: typed<AgentBody & { name: string; email: string }>({ type: 'object', required: ['name', 'email'], additionalProperties: false, properties: agentProps }),
      example: { name: 'Ana Souza', email: 'ana@example.com', status: 'available' },
    },
    response: { description: 'The agent.', data: Agent },
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE'],
    create: async (use, companyId, body) => agentView(await use(ManageAgents).create(companyId, { ...agentInput(body), name: body.name, email: body.email }), 0),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/v1/companies/:id/agents',
    auth: admin,
    operationId: 'adminListAgents',
    summary: 'List agents',
    description: 'Active and inactive unless `active` is given.',
    tag: 'Admin',
    params: companyId,
    query: typed<AgentQuery>({ type: 'object', properties: { ...agentFilters, active: s.boolean(), ...pageProperties(100) } }),
    response: { status: 200, description: 'A page of agents.', data: s.page(Agent) },
    errors: ['BAD_REQUEST', 'NOT_FOUND'],
    async handler({ params, query, use }) {
      await use(AdminService).getCompany(params.id);
      return agentsPage(use(ManageAgents), params.id, query);
    },
  }),
  adminUpdateById({
    path: '/admin/v1/agents/:id',
    operationId: 'adminUpdateAgent',
    summary: 'Update an agent',
    description: 'Agents are never deleted: `active: false` deactivates (their open tickets return to the queue).',
    record: 'agent',
    body: { schema: typed<AgentBody>({ type: 'object', additionalProperties: false, minProperties: 1, properties: agentProps }), example: { active: false } },
    response: { description: 'The agent.', data: Agent },
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT'],
    async update(use, id, body) {
      const agents = use(ManageAgents);
      const agent = await agents.update(id, agentInput(body));
      const [loaded] = await agents.withOpenTickets(agent.companyId, [agent]);
      return agentView(agent, loaded?.openTickets ?? 0);
    },
  }),
  companyPageRoute({
    path: '/admin/v1/companies/:id/teams',
    operationId: 'adminListTeams',
    summary: 'List teams',
    description: 'A page of teams with their members.',
    item: TeamWithMembersSchema,
    list: (use, companyId, query) => use(ManageTeams).listOfCompany(companyId, { page: query.page, limit: query.limit }),
    view: teamWithMembersView,
  }),
  adminUpdateById({
    path: '/admin/v1/teams/:id',
    operationId: 'adminUpdateTeam',
    summary: 'Update a team',
    description: '`setor_ids` and `agent_ids` replace the lists whole.',
    record: 'team',
    body: {
      schema: typed<TeamBody>({ type: 'object', additionalProperties: false, minProperties: 1, properties: teamProps }),
      example: { auto_assign: true, max_open_per_agent: 5 },
    },
    response: { description: 'The team with its members.', data: TeamWithMembersSchema },
    async update(use, teamId, body) {
      const team = await use(ManageTeams).update(teamId, {
        nome: body.nome,
        setorIds: body.setor_ids?.map((id) => id.toLowerCase()),
        agentIds: body.agent_ids?.map((id) => id.toLowerCase()),
        autoAssign: body.auto_assign,
        maxOpenPerAgent: body.max_open_per_agent,
      });
      return teamWithMembersView(team);
    },
  }),
  adminCreateInCompany({
    path: '/admin/v1/companies/:id/quick-replies',
    operationId: 'adminCreateQuickReply',
    summary: 'Create a quick reply',
    description: 'Text or media (or both); at most 1,000 per company (422).',
    body: {
      schema: typed<QuickReplyBody & { shortcut: string; title: string }>({ type: 'object', required: ['shortcut', 'title'], additionalProperties: false, properties: quickReplyProps }),
      example: { shortcut: 'boas-vindas', title: 'Boas-vindas', text: 'Olá {{primeiro_nome}}, aqui é {{atendente}}. Seu protocolo é {{protocolo}}.' },
    },
    response: { description: 'The quick reply.', data: QuickReply },
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE'],
    create: async (use, companyId, body) => quickReplyView(await use(ManageQuickReplies).create(companyId, { ...quickReplyInput(body), shortcut: body.shortcut, title: body.title })),
  }),
  adminUpdateById({
    path: '/admin/v1/quick-replies/:id',
    operationId: 'adminUpdateQuickReply',
    summary: 'Update a quick reply',
    record: 'quick reply',
    body: { schema: typed<QuickReplyBody>({ type: 'object', additionalProperties: false, minProperties: 1, properties: quickReplyProps }), example: { title: 'Saudação' } },
    response: { description: 'The quick reply.', data: QuickReply },
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT'],
    update: async (use, id, body) => quickReplyView(await use(ManageQuickReplies).update(id, quickReplyInput(body))),
  }),
  adminDeleteById({
    path: '/admin/v1/quick-replies/:id',
    operationId: 'adminDeleteQuickReply',
    summary: 'Delete a quick reply',
    record: 'quick reply',
    response: { description: 'Deleted.', data: s.object({ deleted: s.boolean({ const: true }), id: s.uuid() }) },
    async remove(use, id) {
      await use(ManageQuickReplies).delete(id);
      return { deleted: true, id: id };
    },
  }),
];
