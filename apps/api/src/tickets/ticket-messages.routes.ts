import { GetTicketTimeline, MAX_RATING_COMMENT, MAX_TIMELINE_LIMIT, RateTicket, ReplyToTicket } from '@carteiro/core';
import { defineRoute, idParam, reply, type ParameterSpec } from '../http/route.js';
import { component, s, typed, type JsonSchema } from '../http/schema.js';
import { sendMessageSchema } from '../messages/messages.routes.js';
import { ifMatchVersion } from './if-match-version.js';
import { ticketRatingView, timelineItemView } from './ticket-messages-views.js';
import { idempotencyOf } from '../shared/idempotency-of.js';

const ticketId = { id: idParam('ticket', 'Ticket') };

const actorHeader: ParameterSpec = {
  schema: { type: 'string', format: 'uuid' },
  description: 'The agent writing (an agent of the company; unknown: 400): author of replies and notes, `actor.user_id` of the events.',
};

// ---- Schemas ---------------------------------------------------------------------------------

/** `message` of POST /v1/messages: text, media or template fields. */
const messageContentSchema = (sendMessageSchema as unknown as { properties: { message: JsonSchema } }).properties.message;

interface TicketMessageBody {
  message?: {
    text?: string;
    media_url?: string;
    media_type?: string;
    media_delivery?: string;
    media_filename?: string;
    template_name?: string;
    template_language?: string;
    template_components?: unknown[];
  };
  private?: boolean;
  quick_reply_id?: string;
}

const ticketMessageSchema = typed<TicketMessageBody>({
  type: 'object',
  // As every other ticket write: a misspelt field (`privat`) is a 400, never a public reply sent and charged instead of a note.
  additionalProperties: false,
  properties: {
    message: messageContentSchema,
    private: { type: 'boolean', default: false, description: 'A note: stored in the timeline, never sent or charged; allowed on a closed ticket.' },
    quick_reply_id: { type: 'string', format: 'uuid', description: 'Fills text, media and placeholders from a quick reply (company-wide or of the ticket box); with `message.text`, or with `message.media_url` when the quick reply has a media of its own: 400.' },
  },
});

interface TimelineQuery {
  order: 'asc' | 'desc';
  scope: 'ticket' | 'conversation';
  limit: number;
  cursor?: string;
}

const timelineQuery = typed<TimelineQuery>({
  type: 'object',
  properties: {
    order: { type: 'string', enum: ['desc', 'asc'], default: 'desc' },
    scope: { type: 'string', enum: ['ticket', 'conversation'], default: 'ticket', description: '`conversation`: every message of the contact on the box, earlier tickets included.' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_TIMELINE_LIMIT, default: 50 },
    cursor: { type: 'string', minLength: 1, maxLength: 512, description: '`next_cursor` of the previous page (bound to the ticket, order and scope).' },
  },
});

const nullableObject = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: ['object', 'null'], required: Object.keys(properties), properties });

export const TimelineItem = component(
  'TicketTimelineItem',
  s.object({
    id: s.uuid(),
    ticket_id: s.nullableUuid(),
    conversation_id: s.uuid(),
    type: s.enum(['message', 'note', 'activity']),
    direction: s.enum(['inbound', 'outbound']),
    author: nullableObject({ type: s.enum(['contact', 'agent', 'api', 'system', 'assistant']), id: s.nullableString() }),
    content: {
      type: 'object',
      required: ['type', 'text'],
      properties: {
        type: s.enum(['text', 'media', 'template', 'interactive', 'poll', 'event']),
        text: s.nullableString(),
        media_url: s.string(),
        media_type: s.string(),
        media_filename: s.string(),
        template_name: s.string(),
        template_language: s.string(),
        options: s.array(s.object({ id: s.string(), title: s.string() })),
      },
    },
    status: s.enum(['pending', 'sent', 'failed', 'received', 'delivered', 'read']),
    error_code: s.nullableString(),
    sent_at: s.nullableDateTime(),
    delivered_at: s.nullableDateTime(),
    read_at: s.nullableDateTime(),
    activity: { type: ['object', 'null'], required: ['kind', 'from', 'to'], properties: { kind: s.string(), from: {}, to: {} } },
    created_at: s.dateTime(),
  }),
);

const TimelinePage = component(
  'TicketTimelinePage',
  s.object({ items: s.array(TimelineItem), limit: s.integer(), next_cursor: s.nullableString(), has_more: s.boolean() }),
);

interface RatingBody {
  score: number;
  comment?: string | null;
}

const ratingSchema = typed<RatingBody>({
  type: 'object',
  required: ['score'],
  additionalProperties: false,
  properties: {
    score: { type: 'integer', minimum: 1, maximum: 5 },
    comment: { type: ['string', 'null'], maxLength: MAX_RATING_COMMENT },
  },
});

const TicketRatingResult = component(
  'TicketRatingResult',
  s.object({
    ticket_id: s.uuid(),
    rating_status: s.enum(['none', 'requested', 'rated', 'expired', 'not_sent']),
    rating: s.object({ score: s.nullableInteger(), comment: s.nullableString(), rated_at: s.nullableDateTime(), source: s.nullableString() }),
    agent_id: s.nullableUuid(),
    team_id: s.nullableUuid(),
    version: s.integer(),
    changed: s.boolean(),
  }),
);

/** The send errors of POST /v1/messages, plus the ticket's. */
const replyErrors = [
  'BAD_REQUEST',
  'INVALID_NUMBER',
  'BULK_DISABLED',
  'PLAN_EXPIRED',
  'MULTI_NUMBER_DISABLED',
  'NOT_FOUND',
  'UNPROCESSABLE',
  'WINDOW_EXPIRED',
  'PROVIDER_ERROR',
  'SERVICE_UNAVAILABLE',
  'TICKET_CLOSED',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_KEY_MISMATCH',
] as const;

/** The timeline of a ticket, replies and notes, and ratings collected elsewhere. */
export const ticketMessagesRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/tickets/:id/messages',
    auth: { scope: 'tickets:read' },
    operationId: 'listTicketMessages',
    summary: 'Timeline of a ticket',
    description:
      'Messages (inbound and outbound), notes and activities of the ticket (`scope: conversation`: of its whole conversation), ' +
      'newest first by default, by keyset on (`created_at`, `id`): rows written while you page are neither repeated nor skipped.',
    tag: 'Tickets',
    params: ticketId,
    query: timelineQuery,
    response: { status: 200, description: 'A cursor page.', data: TimelinePage },
    async handler({ params, query, principal, use }) {
      const page = await use(GetTicketTimeline).execute({
        companyId: principal.company.id,
        ticketId: params.id,
        order: query.order,
        scope: query.scope,
        limit: query.limit,
        cursor: query.cursor ?? null,
      });
      return { items: page.items.map(timelineItemView), limit: page.limit, next_cursor: page.nextCursor, has_more: page.hasMore };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tickets/:id/messages',
    auth: { scope: 'tickets:write' },
    operationId: 'replyToTicket',
    summary: 'Reply to a ticket or add a note',
    description:
      'A public reply is sent as POST /v1/messages on the ticket box to its contact: charged; a closed ticket is 409 TICKET_CLOSED; a closed ' +
      'official 24-hour window 422 WINDOW_EXPIRED before charging; 402 without balance; 404 without a connected instance; 502 or 422 after a ' +
      'refunded failure. The ticket status does not change; it stops waiting. `private: true` stores a note (never sent or charged, allowed ' +
      'when closed). `quick_reply_id` fills the content from a quick reply. The answer is the timeline item.',
    tag: 'Tickets',
    params: ticketId,
    headers: {
      'X-Actor-User-Id': actorHeader,
      'Idempotency-Key': {
        schema: { type: 'string' },
        description: 'A unique key (a UUID) per request: a repeated call within 24 hours answers the first message with `meta.idempotent_replay: true` and sends nothing.',
      },
    },
    body: { schema: ticketMessageSchema, example: { message: { text: 'Olá! Em que posso ajudar?' } } },
    response: {
      status: 201,
      description: 'Sent (or stored, for a note).',
      data: TimelineItem,
      meta: s.object({ idempotent_replay: s.boolean() }, { description: 'Present on an idempotent replay.' }),
    },
    errors: replyErrors,
    async handler({ params, body, headers, principal, res, use }) {
      const m = body.message ?? {};
      const idempotency = idempotencyOf(headers, principal, `/v1/tickets/${params.id}/messages`, body);
      const { outcome, replay } = await use(ReplyToTicket).execute(
        {
          companyId: principal.company.id,
          keyMode: principal.apiKey.mode,
          ticketId: params.id,
          message: {
            text: m.text,
            mediaUrl: m.media_url,
            mediaType: m.media_type,
            mediaDelivery: m.media_delivery,
            mediaFilename: m.media_filename,
            templateName: m.template_name,
            templateLanguage: m.template_language,
            templateComponents: m.template_components,
          },
          private: body.private ?? false,
          quickReplyId: body.quick_reply_id ?? null,
          actorUserId: headers['X-Actor-User-Id'] ?? null,
        },
        idempotency,
      );
      if (!replay) return timelineItemView(outcome.message);
      res.setHeader('Idempotent-Replayed', 'true');
      return reply(timelineItemView(outcome.message), { meta: { idempotent_replay: true } });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tickets/:id/rating',
    auth: { scope: 'tickets:write' },
    operationId: 'rateTicket',
    summary: 'Record a rating collected elsewhere',
    description:
      'CSAT 1-5 of a closed ticket (`source: api`): the same rating again changes nothing (`changed: false`); another within 24 hours of the ' +
      'last replaces it; later 409 CONFLICT. Emits `conversation.rated`.',
    tag: 'Tickets',
    params: ticketId,
    headers: { 'X-Actor-User-Id': actorHeader, 'If-Match': { schema: { type: 'string', maxLength: 32 }, description: '`"<version>"`: 412 when the ticket changed.' } },
    body: { schema: ratingSchema, example: { score: 5, comment: 'Muito bom' } },
    response: { status: 200, description: 'The ticket rating.', data: TicketRatingResult },
    errors: ['NOT_FOUND', 'CONFLICT', 'INVALID_TRANSITION', 'PRECONDITION_FAILED'],
    async handler({ params, body, headers, principal, use }) {
      const { ticket, changed } = await use(RateTicket).execute({
        companyId: principal.company.id,
        ticketId: params.id,
        score: body.score,
        comment: body.comment ?? null,
        actorUserId: headers['X-Actor-User-Id'] ?? null,
        ifMatch: ifMatchVersion(headers['If-Match']),
      });
      return ticketRatingView(ticket, changed);
    },
  }),
];
