import { CancelScheduledMessage, ReadScheduledMessages, ScheduleMessage, type TimedSendStatus } from '@carteiro/core';
import { defineRoute, idParam } from '../http/route.js';
import { pageOfCompany } from '../shared/page-of-company.js';
import { getById } from '../shared/get-by-id.js';
import { pageProperties, s, typed, type PageQuery } from '../http/schema.js';
import { clientInput, ScheduledMessageSchema } from './scheduling-schemas.js';
import { callerAndClient, idempotentCreate } from './idempotent-create.js';
import { scheduledMessageView } from './scheduling-views.js';

interface ScheduleBody {
  client_id?: string;
  phone?: string;
  name?: string;
  setor_id?: string;
  text?: string;
  media_url?: string;
  media_type?: string;
  media_filename?: string;
  send_at: string;
  respect_safe_hours?: boolean;
}

const statuses = ['scheduled', 'sending', 'sent', 'failed', 'cancelled'] as const;
const read = { scope: 'scheduled_messages:read' } as const;
const write = { scope: 'scheduled_messages:write' } as const;
const scheduledId = { id: idParam('scheduled message', 'Scheduled message') };

/** /v1/scheduled-messages (business.md §2). */
export const scheduledMessagesRoutes = [
  pageOfCompany({
    path: '/v1/scheduled-messages',
    auth: read,
    operationId: 'listScheduledMessages',
    summary: 'List scheduled messages',
    description: 'By `send_at`. Filters: `status`, `client_id`, `setor_id`, `from`/`to` (instants with an offset, on `send_at`).',
    tag: 'Scheduled messages',
    query: typed<PageQuery & { status?: TimedSendStatus; client_id?: string; setor_id?: string; from?: string; to?: string }>({
      type: 'object',
      additionalProperties: false,
      properties: {
        ...pageProperties(100),
        status: { type: 'string', enum: [...statuses] },
        client_id: { type: 'string', format: 'uuid' },
        setor_id: { type: 'string', format: 'uuid' },
        from: { type: 'string', format: 'date-time' },
        to: { type: 'string', format: 'date-time' },
      },
    }),
    response: { description: 'A page of scheduled messages.', item: ScheduledMessageSchema },
    list: (use, companyId, query) => use(ReadScheduledMessages).list(
      companyId,
      {
        ...(query.status ? { statuses: [query.status] } : {}),
        ...(query.client_id ? { clientId: query.client_id } : {}),
        ...(query.setor_id ? { setorId: query.setor_id } : {}),
        ...(query.from ? { from: new Date(query.from) } : {}),
        ...(query.to ? { to: new Date(query.to) } : {}),
      },
      { page: query.page, limit: query.limit },
    ),
    view: scheduledMessageView,
  }),
  idempotentCreate({
    path: '/v1/scheduled-messages',
    auth: write,
    operationId: 'createScheduledMessage',
    summary: 'Schedule a message',
    description:
      'Sent once at `send_at` (now + 60 s to now + 90 days) by the box’s dispatch lane, keeping its pacing. With `respect_safe_hours` (default) a time outside the ' +
      'company’s safe hours moves to the next window (`waiting_reason: outside_safe_hours`). Temporary failures retry at +1, +5 and +15 minutes. ' +
      'Placeholders as in campaigns, filled at send time. 402 PLAN_LIMIT_REACHED past the pending quota.',
    tag: 'Scheduled messages',
    body: {
      schema: typed<ScheduleBody>({
        type: 'object',
        additionalProperties: false,
        required: ['send_at'],
        properties: {
          ...clientInput,
          setor_id: { type: 'string', format: 'uuid' },
          text: { type: 'string', minLength: 1, maxLength: 4096 },
          media_url: { type: 'string', minLength: 1, maxLength: 2048 },
          media_type: { type: 'string', enum: ['image', 'video', 'audio', 'document'] },
          media_filename: { type: 'string', minLength: 1, maxLength: 255 },
          send_at: { type: 'string', format: 'date-time', description: 'An instant with an offset.' },
          respect_safe_hours: { type: 'boolean', default: true },
        },
      }),
      example: { phone: '+5511987654321', text: '{{saudacao}}, {{primeiro_nome}}! Lembrete do seu pedido.', send_at: '2026-12-01T14:00:00-03:00' },
    },
    response: { description: 'Scheduled.', data: ScheduledMessageSchema },
    errors: ['PLAN_LIMIT_REACHED', 'NOT_FOUND', 'INVALID_NUMBER'],
    create: (use, principal, body, idempotency) =>
      use(ScheduleMessage).execute(
        {
          ...callerAndClient(principal, body),
          text: body.text ?? null,
          mediaUrl: body.media_url ?? null,
          mediaType: body.media_type ?? null,
          mediaFilename: body.media_filename ?? null,
          sendAt: new Date(body.send_at),
          respectSafeHours: body.respect_safe_hours ?? true,
        },
        scheduledMessageView,
        idempotency,
      ),
  }),
  getById({
    path: '/v1/scheduled-messages/:id', auth: read, params: scheduledId,
    operationId: 'getScheduledMessage', summary: 'Get a scheduled message', tag: 'Scheduled messages',
    response: { description: 'The scheduled message.', data: ScheduledMessageSchema },
    read: async (use, companyId, id) => scheduledMessageView(await use(ReadScheduledMessages).get(companyId, id)),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/scheduled-messages/:id',
    auth: write,
    params: scheduledId,
    operationId: 'cancelScheduledMessage',
    summary: 'Cancel a scheduled message',
    description:
      'Atomic: either the cancel wins (the message will never be sent) or the lane already took it and the answer is 409 CONFLICT with `details.status`. A repeat answers the same cancellation.',
    tag: 'Scheduled messages',
    response: { status: 200, description: 'Cancelled.', data: s.object({ id: s.uuid(), status: s.enum(['cancelled']), cancelled_at: s.dateTime() }) },
    errors: ['CONFLICT'],
    async handler({ params, principal, use }) {
      const row = await use(CancelScheduledMessage).execute(principal.company.id, params.id);
      return { id: row.id, status: 'cancelled', cancelled_at: row.cancelledAt!.toISOString() };
    },
  }),
];
