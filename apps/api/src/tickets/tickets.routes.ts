import {
  ManageTickets,
  NotFoundError,
  OpenTicket,
  ReadTickets,
  TicketPriorities,
  TicketStatuses,
  ValidationError,
  type TicketFilter,
  type TicketPriority,
  type TicketSort,
  type TicketStatus,
  type TicketWriteContext,
} from '@carteiro/core';
import { defineRoute, idParam, reply, type ParameterSpec } from '../http/route.js';
import { component, s, typed, type JsonSchema } from '../http/schema.js';
import { getById } from '../shared/get-by-id.js';
import { ifMatchVersion } from './if-match-version.js';
import { queueEntryView, ticketDetailView, ticketView } from './ticket-views.js';
import { idempotencyOf } from '../shared/idempotency-of.js';

const read = { scope: 'tickets:read' } as const;
const write = { scope: 'tickets:write' } as const;
const ticketId = { id: idParam('ticket', 'Ticket') };

// ---- Headers ---------------------------------------------------------------------------------

const actorHeader: ParameterSpec = {
  schema: { type: 'string', format: 'uuid' },
  description: 'The agent acting (an agent of the company; unknown: 400): `actor.user_id` of the events.',
};
const ifMatchHeader: ParameterSpec = {
  schema: { type: 'string', maxLength: 20 },
  description: 'The ticket `version` the change was based on, quoted (`"3"`): another stored version answers 412 PRECONDITION_FAILED and changes nothing.',
};
const writeHeaders = { 'X-Actor-User-Id': actorHeader, 'If-Match': ifMatchHeader };
const idempotencyHeader: ParameterSpec = {
  schema: { type: 'string' },
  description: 'A unique key (a UUID) per request: a repeated call within 24 hours returns the first answer with `meta.idempotent_replay: true` and opens nothing.',
};

function writeContext(companyId: string, headers: Record<string, string | undefined>): TicketWriteContext {
  return { companyId, ifMatch: ifMatchVersion(headers['If-Match']), actorUserId: headers['X-Actor-User-Id'] ?? null };
}

// ---- Request schemas -------------------------------------------------------------------------

const uuid = { type: 'string', format: 'uuid' };
const nullableUuid = { type: ['string', 'null'], format: 'uuid' };
const priority = { type: ['string', 'null'], enum: [...TicketPriorities, null] };
const commaList = (values: readonly string[], description: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength: 200,
  pattern: `^(${values.join('|')})(,(${values.join('|')}))*$`,
  description,
});

interface TicketListQuery {
  status?: string;
  setor_id?: string;
  client_id?: string;
  owner?: string;
  team_id?: string;
  priority?: string;
  tag_id?: string;
  updated_since?: string;
  q?: string;
  sort: TicketSort;
  limit: number;
  cursor?: string;
}

const listQuery = typed<TicketListQuery>({
  type: 'object',
  additionalProperties: false,
  properties: {
    status: commaList(TicketStatuses, 'Comma-separated statuses; default `open,pending,snoozed`.'),
    setor_id: uuid,
    client_id: uuid,
    owner: { type: 'string', pattern: '^(none|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$', description: 'An agent id, or `none` for tickets without agent.' },
    team_id: uuid,
    priority: commaList(TicketPriorities, 'Comma-separated priorities.'),
    tag_id: uuid,
    updated_since: { type: 'string', format: 'date-time' },
    q: { type: 'string', minLength: 1, maxLength: 200, description: 'Part of the contact name; digits: the ticket number or the end of the phone (either ninth-digit form).' },
    sort: {
      type: 'string',
      enum: ['last_activity_desc', 'updated_asc'],
      default: 'last_activity_desc',
      description:
        '`last_activity_desc`: newest activity first; a ticket that moves ahead of the cursor is not repeated. `updated_asc` (sync): at least once, rows changed in the last 5 s withheld, `next_cursor` always set (poll with it).',
    },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25, description: 'Above 100 is a 400.' },
    cursor: { type: 'string', minLength: 1, maxLength: 1000, description: 'The `next_cursor` of the previous page; bound to the filters and sort it was made with.' },
  },
});

interface QueueQuery {
  setor_id?: string;
  team_id?: string;
  priority?: string;
  limit: number;
  cursor?: string;
}

const queueQuery = typed<QueueQuery>({
  type: 'object',
  additionalProperties: false,
  properties: {
    setor_id: uuid,
    team_id: uuid,
    priority: commaList(TicketPriorities, 'Comma-separated priorities.'),
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25, description: 'Above 100 is a 400.' },
    cursor: { type: 'string', minLength: 1, maxLength: 1000 },
  },
});

interface OpenTicketBody {
  client_id?: string;
  phone?: string;
  setor_id?: string;
  priority?: TicketPriority | null;
  agent_id?: string | null;
  team_id?: string | null;
  reopen?: boolean;
}

const openTicketSchema = typed<OpenTicketBody>({
  type: 'object',
  additionalProperties: false,
  properties: {
    client_id: { ...uuid, description: 'The contact; or `phone`.' },
    phone: { type: 'string', minLength: 1, maxLength: 40, description: 'The contact by phone (either ninth-digit form).' },
    setor_id: { ...uuid, description: "Default: the box of the contact's most recently active conversation." },
    priority,
    agent_id: nullableUuid,
    team_id: { ...nullableUuid, description: 'A team without agent: the team auto-assigns when it is set to.' },
    reopen: { type: 'boolean', default: false, description: 'Reopen the ticket closed within 7 days instead (200 `reopened: true`); a new one when there is none.' },
  },
});

interface StatusBody {
  status: TicketStatus;
  snoozed_until?: string | null;
  send_closing_message?: boolean;
  request_rating?: boolean;
  close_reason?: string | null;
}

const statusSchema = typed<StatusBody>({
  type: 'object',
  required: ['status'],
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: [...TicketStatuses] },
    snoozed_until: { type: ['string', 'null'], format: 'date-time', description: 'With `snoozed`: 60 s to 90 days ahead; omitted or null: until the contact writes.' },
    send_closing_message: { type: 'boolean', description: "Closing: send the box's closing message (default true when the box has one)." },
    request_rating: { type: 'boolean', description: "Closing: send the rating request (default: the box's `csat_enabled`)." },
    close_reason: { type: ['string', 'null'], maxLength: 500 },
  },
});

interface AssigneeBody {
  agent_id?: string | null;
  team_id?: string | null;
  claim?: boolean;
}

const assigneeSchema = typed<AssigneeBody>({
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    agent_id: nullableUuid,
    team_id: nullableUuid,
    claim: { type: 'boolean', default: false, description: 'Take the ticket only if no agent holds it (else 409 ALREADY_ASSIGNED).' },
  },
});

const prioritySchema = typed<{ priority: TicketPriority | null }>({
  type: 'object',
  required: ['priority'],
  additionalProperties: false,
  properties: { priority },
});

const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const tagIdsSchema = { type: 'array', minItems: 1, maxItems: 50, items: uuid };
const tagsSchema = typed<{ tag_ids: string[] }>({ type: 'object', required: ['tag_ids'], additionalProperties: false, properties: { tag_ids: tagIdsSchema } });
const untagSchema = typed<{ tag_ids?: string[] }>({ type: 'object', additionalProperties: false, properties: { tag_ids: tagIdsSchema } });
const tagsQuery = typed<{ tag_ids?: string }>({
  type: 'object',
  additionalProperties: false,
  properties: {
    tag_ids: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      // A malformed id is a 400, as in the body; only well-formed ids that are not the company's tags are the 404.
      pattern: `^${UUID_PATTERN}(,${UUID_PATTERN})*$`,
      description: 'Comma-separated tag ids (instead of the body).',
    },
  },
});

const linkSchema = typed<{ type: 'crm_opportunity'; id: string }>({
  type: 'object',
  required: ['type', 'id'],
  additionalProperties: false,
  properties: { type: { type: 'string', enum: ['crm_opportunity'] }, id: uuid },
});

interface HandoffBody {
  summary: string;
  agent_id?: string | null;
  team_id?: string | null;
  priority?: TicketPriority | null;
  pause_assistant?: boolean;
  pause_until?: string | null;
}

const handoffSchema = typed<HandoffBody>({
  type: 'object',
  required: ['summary'],
  additionalProperties: false,
  properties: {
    summary: { type: 'string', minLength: 1, maxLength: 4000 },
    agent_id: nullableUuid,
    team_id: nullableUuid,
    priority,
    pause_assistant: { type: 'boolean', default: true },
    pause_until: { type: ['string', 'null'], format: 'date-time', description: 'The pause ends then (≤ 30 days); omitted: the assistant is switched off.' },
  },
});

// ---- Response schemas ------------------------------------------------------------------------

const contactSchema = { type: ['object', 'null'], properties: { id: s.uuid(), name: s.nullableString(), phone: s.string(), ia_ativa: s.boolean() } };

const ticketFields: Record<string, JsonSchema> = {
  id: s.uuid(),
  number: s.integer({ minimum: 1, description: "The company's protocol number." }),
  status: s.enum(TicketStatuses),
  priority: { type: ['string', 'null'], enum: [...TicketPriorities, null] },
  setor_id: s.uuid(),
  client_id: s.uuid(),
  conversation_id: s.uuid(),
  contact: contactSchema,
  agent_id: s.nullableUuid(),
  team_id: s.nullableUuid(),
  snoozed_until: s.nullableDateTime(),
  waiting_since: s.nullableDateTime({ description: 'Set when it becomes open or the contact writes while open; cleared by a public reply or leaving open.' }),
  last_message: {
    type: ['object', 'null'],
    properties: { id: s.uuid(), direction: s.enum(['inbound', 'outbound']), type: s.string(), preview: s.nullableString(), at: s.dateTime() },
  },
  last_activity_at: s.dateTime(),
  tag_ids: s.array(s.uuid()),
  source: s.enum(['inbound', 'api', 'handoff']),
  reply_window: s.object({ open: s.boolean(), open_until: s.nullableDateTime({ description: 'Official boxes: when the 24-hour window closes.' }) }),
  first_response_at: s.nullableDateTime(),
  closed_at: s.nullableDateTime(),
  close_reason: s.nullableString(),
  rating_status: s.enum(['none', 'requested', 'rated', 'expired', 'not_sent']),
  version: s.integer({ minimum: 1, description: 'Send it back as `If-Match: "<version>"` on writes.' }),
  created_at: s.dateTime(),
  updated_at: s.dateTime(),
};
/** A ticket as lists show it (also the contact 360 view's tickets). */
export const Ticket = component('Ticket', s.object(ticketFields));
const detailFields: Record<string, JsonSchema> = {
  ...ticketFields,
  tags: s.array(s.object({ id: s.uuid(), name: s.string(), color: s.nullableString() })),
  links: s.object({
    crm_opportunities: s.array(s.object({ id: s.uuid(), title: s.string(), stage_id: s.uuid(), value: { type: ['number', 'null'] }, linked_at: s.dateTime() })),
  }),
  handoff: { type: ['object', 'null'], properties: { summary: s.string(), at: s.dateTime() } },
  rating: s.object({ score: s.nullableInteger({ minimum: 1, maximum: 5 }), comment: s.nullableString(), rated_at: s.nullableDateTime() }),
};
const TicketDetail = component('TicketDetail', s.object(detailFields));
const TicketWrite = component(
  'TicketWrite',
  s.object({ ...detailFields, changed: s.boolean({ description: 'false: the value was already so; nothing was written and no event sent.' }) }),
);
const cursorPage = (items: JsonSchema, extra: Record<string, JsonSchema> = {}) =>
  s.object({ items: s.array(items), limit: s.integer({ minimum: 1, maximum: 100 }), next_cursor: s.nullableString(), has_more: s.boolean(), ...extra });
const QueueEntry = component(
  'QueueEntry',
  s.object({
    ticket_id: s.uuid(),
    number: s.integer({ minimum: 1 }),
    client_id: s.uuid(),
    contact: contactSchema,
    setor_id: s.uuid(),
    team_id: s.nullableUuid(),
    priority: { type: ['string', 'null'], enum: [...TicketPriorities, null] },
    waiting_since: s.nullableDateTime(),
    wait_seconds: s.integer({ minimum: 0 }),
    position: s.integer({ minimum: 1, description: 'Place in the whole queue of the filters, from 1.' }),
    handoff_summary: s.nullableString(),
  }),
);

// ---- Helpers ---------------------------------------------------------------------------------

const split = (value: string | undefined) => (value === undefined ? undefined : [...new Set(value.split(','))]);

function filterOf(query: TicketListQuery): TicketFilter {
  return {
    statuses: (split(query.status) as TicketStatus[] | undefined) ?? ['open', 'pending', 'snoozed'],
    setorId: query.setor_id,
    contactId: query.client_id,
    agentId: query.owner === undefined ? undefined : query.owner === 'none' ? null : query.owner.toLowerCase(),
    teamId: query.team_id,
    priorities: split(query.priority) as TicketPriority[] | undefined,
    tagId: query.tag_id,
    updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
    q: query.q?.trim() || undefined,
  };
}

const writeErrors = ['PRECONDITION_FAILED'] as const;

/** The ticket routes of conversations.md §2 (but messages and rating) and the queue of §6. */
export const ticketsRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/tickets',
    auth: read,
    operationId: 'listTickets',
    summary: 'List tickets',
    description: 'A cursor list. Filters combine with AND; a cursor only continues the list (filters and sort) it was made for.',
    tag: 'Tickets',
    query: listQuery,
    response: { status: 200, description: 'A page of tickets.', data: cursorPage(Ticket) },
    async handler({ query, principal, use }) {
      const page = await use(ReadTickets).list(principal.company.id, filterOf(query), query.sort, query.limit, query.cursor);
      return { items: page.items.map(ticketView), limit: page.limit, next_cursor: page.nextCursor, has_more: page.hasMore };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tickets',
    auth: write,
    operationId: 'openTicket',
    summary: 'Open (or reopen) a ticket',
    description:
      'Opens an `open` ticket in an existing conversation of the contact (`conversation.created`). Another active ticket of the box and contact: 409 TICKET_ACTIVE `details.ticket_id`; no conversation: 422 NO_CONVERSATION (send a first-contact message first).',
    tag: 'Tickets',
    headers: { 'Idempotency-Key': idempotencyHeader, 'X-Actor-User-Id': actorHeader },
    body: { schema: openTicketSchema, example: { phone: '+5511987654321', priority: 'high' } },
    response: {
      status: 201,
      description: 'Opened (201), or reopened (200, `reopened: true`).',
      data: s.object({ ...detailFields, reopened: s.boolean() }),
      meta: s.object({ idempotent_replay: s.boolean() }, { description: 'Present on an idempotent replay.' }),
    },
    errors: ['NOT_FOUND', 'TICKET_ACTIVE', 'NO_CONVERSATION', 'INVALID_NUMBER', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_MISMATCH'],
    async handler({ body, headers, principal, res, use }) {
      const idempotency = idempotencyOf(headers, principal, '/v1/tickets', body);
      const companyId = principal.company.id;
      const outcome = await use(OpenTicket).execute(
        companyId,
        {
          clientId: body.client_id,
          phone: body.phone,
          setorId: body.setor_id,
          priority: body.priority,
          agentId: body.agent_id,
          teamId: body.team_id,
          reopen: body.reopen,
          actorUserId: headers['X-Actor-User-Id'] ?? null,
        },
        idempotency,
      );
      const view = { ...ticketDetailView(await use(ReadTickets).detail(companyId, outcome.ticketId)), reopened: outcome.reopened };
      const status = outcome.reopened ? 200 : 201;
      if (!outcome.replay) return reply(view, { status });
      res.setHeader('Idempotent-Replayed', 'true');
      return reply(view, { meta: { idempotent_replay: true }, status });
    },
  }),
  getById({
    path: '/v1/tickets/:id', auth: read, params: ticketId,
    operationId: 'getTicket', summary: 'Get a ticket', tag: 'Tickets',
    description: 'With its tags, linked CRM opportunities, handoff summary and rating.',
    response: { description: 'The ticket.', data: TicketDetail },
    read: async (use, companyId, id) => ticketDetailView(await use(ReadTickets).detail(companyId, id)),
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/tickets/:id/status',
    auth: write,
    operationId: 'changeTicketStatus',
    summary: 'Move a ticket to another status',
    description:
      'pending → open, snoozed, closed; open → snoozed, pending, closed; snoozed → open, pending, closed; closed → open within 7 days (another active ticket: 409 TICKET_ACTIVE). ' +
      'Other moves: 409 INVALID_TRANSITION `{ status, allowed }`. The current status: 200 `changed: false`. Closing answers `closing { closing_message, rating_request }`: queued, none, skipped_window, already_requested. `conversation.status_changed`.',
    tag: 'Tickets',
    params: ticketId,
    headers: writeHeaders,
    body: { schema: statusSchema, example: { status: 'closed', close_reason: 'Resolvido' } },
    response: {
      status: 200,
      description: 'The ticket after the move.',
      data: s.object(
        {
          ...detailFields,
          changed: s.boolean(),
          closing: s.object({ closing_message: s.string(), rating_request: s.string() }, { description: 'Closing only.' }),
        },
        { optional: ['closing'] },
      ),
    },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION', 'TICKET_ACTIVE', ...writeErrors],
    async handler({ params, body, headers, principal, use }) {
      const companyId = principal.company.id;
      const result = await use(ManageTickets).changeStatus(writeContext(companyId, headers), params.id, {
        status: body.status,
        snoozedUntil: body.snoozed_until ? new Date(body.snoozed_until) : body.snoozed_until === null ? null : undefined,
        closeReason: body.close_reason,
        closing: { sendClosingMessage: body.send_closing_message, requestRating: body.request_rating },
        keyMode: principal.apiKey.mode,
      });
      const view = { ...ticketDetailView(await use(ReadTickets).detail(companyId, params.id)), changed: result.changed };
      return result.closing ? { ...view, closing: { closing_message: result.closing.closingMessage, rating_request: result.closing.ratingRequest } } : view;
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/tickets/:id/assignee',
    auth: write,
    operationId: 'assignTicket',
    summary: 'Assign a ticket',
    description:
      'An agent (active, of the company) and/or a team, or null to clear. `claim: true` takes it only when no agent holds it (409 ALREADY_ASSIGNED). Assigning an agent opens a pending ticket; a team without agent auto-assigns when the team is set to. Closed: 409 TICKET_CLOSED. `conversation.assigned`.',
    tag: 'Tickets',
    params: ticketId,
    headers: writeHeaders,
    body: { schema: assigneeSchema, example: { agent_id: '5f0c6a8e-8d1b-4b0e-9a57-2f6f1d3c4b21', claim: true } },
    response: { status: 200, description: 'The ticket after the change.', data: TicketWrite },
    errors: ['NOT_FOUND', 'TICKET_CLOSED', 'ALREADY_ASSIGNED', ...writeErrors],
    async handler({ params, body, headers, principal, use }) {
      const companyId = principal.company.id;
      const result = await use(ManageTickets).assign(writeContext(companyId, headers), params.id, { agentId: body.agent_id, teamId: body.team_id, claim: body.claim });
      return { ...ticketDetailView(await use(ReadTickets).detail(companyId, params.id)), changed: result.changed };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/tickets/:id/priority',
    auth: write,
    operationId: 'setTicketPriority',
    summary: "Set a ticket's priority",
    tag: 'Tickets',
    params: ticketId,
    headers: writeHeaders,
    body: { schema: prioritySchema, example: { priority: 'urgent' } },
    response: { status: 200, description: 'The ticket after the change.', data: TicketWrite },
    errors: ['NOT_FOUND', ...writeErrors],
    async handler({ params, body, headers, principal, use }) {
      const companyId = principal.company.id;
      const result = await use(ManageTickets).setPriority(writeContext(companyId, headers), params.id, body.priority);
      return { ...ticketDetailView(await use(ReadTickets).detail(companyId, params.id)), changed: result.changed };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tickets/:id/tags',
    auth: write,
    operationId: 'tagTicket',
    summary: 'Tag a ticket',
    description: 'Idempotent. Unknown tags: 404 `details.tag_ids`, nothing changed.',
    tag: 'Tickets',
    params: ticketId,
    headers: writeHeaders,
    body: { schema: tagsSchema, example: { tag_ids: ['5f0c6a8e-8d1b-4b0e-9a57-2f6f1d3c4b21'] } },
    response: { status: 200, description: 'The ticket\'s tags and those added.', data: s.object({ tag_ids: s.array(s.uuid()), added: s.array(s.uuid()), changed: s.boolean() }) },
    errors: ['NOT_FOUND', ...writeErrors],
    async handler({ params, body, headers, principal, use }) {
      const result = await use(ManageTickets).addTags(writeContext(principal.company.id, headers), params.id, body.tag_ids);
      return { tag_ids: result.ticket.tagIds, added: result.added, changed: result.changed };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/tickets/:id/tags',
    auth: write,
    operationId: 'untagTicket',
    summary: 'Remove tags from a ticket',
    description: 'The tags in the body or in `?tag_ids=` (comma-separated). Idempotent. Unknown tags: 404 `details.tag_ids`, nothing changed.',
    tag: 'Tickets',
    params: ticketId,
    query: tagsQuery,
    headers: writeHeaders,
    body: { schema: untagSchema, required: false },
    response: { status: 200, description: "The ticket's tags and those removed.", data: s.object({ tag_ids: s.array(s.uuid()), removed: s.array(s.uuid()), changed: s.boolean() }) },
    errors: ['NOT_FOUND', ...writeErrors],
    async handler({ params, body, query, headers, principal, use }) {
      const ids = body?.tag_ids ?? split(query.tag_ids);
      if (!ids || ids.length === 0) throw new ValidationError('tag_ids is required (body or query)', { field: 'tag_ids' });
      if (ids.length > 50) throw new ValidationError('tag_ids takes at most 50 ids', { field: 'tag_ids' });
      const result = await use(ManageTickets).removeTags(writeContext(principal.company.id, headers), params.id, ids);
      return { tag_ids: result.ticket.tagIds, removed: result.removed, changed: result.changed };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tickets/:id/links',
    auth: write,
    operationId: 'linkTicket',
    summary: 'Link a record to a ticket',
    description: 'A CRM opportunity of the company (unknown: 404). 201 linked; 200 when it already was.',
    tag: 'Tickets',
    params: ticketId,
    headers: writeHeaders,
    body: { schema: linkSchema, example: { type: 'crm_opportunity', id: '5f0c6a8e-8d1b-4b0e-9a57-2f6f1d3c4b21' } },
    response: { status: 201, description: 'Linked (200: already linked).', data: s.object({ type: s.enum(['crm_opportunity']), id: s.uuid(), linked_at: s.dateTime(), created: s.boolean() }) },
    errors: ['NOT_FOUND', ...writeErrors],
    async handler({ params, body, headers, principal, use }) {
      const { created, link } = await use(ManageTickets).link(writeContext(principal.company.id, headers), params.id, body.type, body.id);
      return reply({ type: link.type, id: link.targetId, linked_at: link.linkedAt.toISOString(), created }, { status: created ? 201 : 200 });
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/tickets/:id/links/:type/:targetId',
    auth: write,
    operationId: 'unlinkTicket',
    summary: 'Unlink a record from a ticket',
    description: 'Not linked: 404.',
    tag: 'Tickets',
    params: {
      ...ticketId,
      type: { schema: { type: 'string', minLength: 1, maxLength: 50 }, description: 'The kind of record: `crm_opportunity` (another kind is never linked: 404).' },
      targetId: idParam('linked record', 'Link'),
    },
    headers: writeHeaders,
    response: { status: 200, description: 'Unlinked.', data: s.object({ type: s.string(), id: s.uuid(), removed: s.boolean() }) },
    errors: ['NOT_FOUND', ...writeErrors],
    async handler({ params, headers, principal, use }) {
      if (params.type !== 'crm_opportunity') throw new NotFoundError('Link', { type: params.type });
      await use(ManageTickets).unlink(writeContext(principal.company.id, headers), params.id, 'crm_opportunity', params.targetId);
      return { type: params.type, id: params.targetId, removed: true };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tickets/:id/handoff',
    auth: write,
    operationId: 'handOffTicket',
    summary: 'Hand a ticket to humans',
    description:
      'Opens the ticket, pins the summary (a note in the timeline), assigns as given (a team without agent auto-assigns; neither: the queue), sets the priority and pauses the contact\'s assistant. Closed: 409 INVALID_TRANSITION. `conversation.assigned` with `by: handoff`.',
    tag: 'Tickets',
    params: ticketId,
    headers: writeHeaders,
    body: { schema: handoffSchema, example: { summary: 'Cliente quer orçamento de 3 itens; já informou CEP.', priority: 'high' } },
    response: { status: 200, description: 'The ticket after the handoff.', data: TicketWrite },
    errors: ['NOT_FOUND', 'INVALID_TRANSITION', ...writeErrors],
    async handler({ params, body, headers, principal, use }) {
      const companyId = principal.company.id;
      const result = await use(ManageTickets).handoff(writeContext(companyId, headers), params.id, {
        summary: body.summary,
        agentId: body.agent_id,
        teamId: body.team_id,
        priority: body.priority,
        pauseAssistant: body.pause_assistant,
        pauseUntil: body.pause_until ? new Date(body.pause_until) : null,
      });
      return { ...ticketDetailView(await use(ReadTickets).detail(companyId, params.id)), changed: result.changed };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/queue',
    auth: read,
    operationId: 'getTicketQueue',
    summary: 'The human queue',
    description: 'Open tickets without agent, by priority (urgent first, none last), then `waiting_since`, then id.',
    tag: 'Tickets',
    query: queueQuery,
    response: {
      status: 200,
      description: 'A page of the queue with its totals.',
      data: cursorPage(QueueEntry, { total: s.integer({ minimum: 0 }), oldest_wait_seconds: s.integer({ minimum: 0 }) }),
    },
    async handler({ query, principal, use }) {
      const page = await use(ReadTickets).queue(
        principal.company.id,
        { setorId: query.setor_id, teamId: query.team_id, priorities: split(query.priority) as TicketPriority[] | undefined },
        query.limit,
        query.cursor,
      );
      return {
        items: page.items.map(queueEntryView),
        limit: page.limit,
        next_cursor: page.nextCursor,
        has_more: page.hasMore,
        total: page.total,
        oldest_wait_seconds: page.oldestWaitSeconds,
      };
    },
  }),
];
