import { MAX_OPTION_ID_LENGTH, MAX_PROVIDER_MESSAGE_ID_LENGTH, MAX_TEXT_LENGTH, MediaTypes, NotFoundError, ReceiveInboundMessage, RecordReceipt, type MediaType } from '@carteiro/core';
import { defineRoute } from '../http/route.js';
import { s, typed } from '../http/schema.js';

export interface InboundBody {
  setor_id: string;
  from: string;
  text?: string;
  name?: string;
  media_url?: string;
  media_type?: MediaType;
  option_id?: string;
  provider_message_id?: string;
}

export const inboundSchema = typed<InboundBody>({
  type: 'object',
  required: ['setor_id', 'from'],
  properties: {
    setor_id: { type: 'string', format: 'uuid' },
    from: { type: 'string', minLength: 1, maxLength: 64, description: 'The contact writing, e.g. +5511987654321.' },
    text: { type: 'string', minLength: 1, maxLength: MAX_TEXT_LENGTH, description: 'The text, or the caption of `media_url`, or the title of `option_id`. One of text, media_url and option_id is required.' },
    name: { type: 'string', minLength: 1, maxLength: 100, description: "The contact's push name: fills the contact's name when it has none." },
    media_url: { type: 'string', format: 'uri', maxLength: 2048, description: 'A media the contact sent.' },
    media_type: { type: 'string', enum: [...MediaTypes], description: 'The kind of `media_url` (default image).' },
    option_id: { type: 'string', minLength: 1, maxLength: MAX_OPTION_ID_LENGTH, description: 'The option chosen in an interactive list or buttons, e.g. `csat_5` answering a rating request.' },
    provider_message_id: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_PROVIDER_MESSAGE_ID_LENGTH,
      description: "The provider's message id: a repeat on the same box is ignored (answered with the first message).",
    },
  },
  anyOf: [{ required: ['text'] }, { required: ['media_url'] }, { required: ['option_id'] }],
});

const receiptSchema = typed<{ message_id: string; status: 'delivered' | 'read' }>({
  type: 'object',
  required: ['message_id', 'status'],
  additionalProperties: false,
  properties: {
    message_id: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_PROVIDER_MESSAGE_ID_LENGTH,
      description: 'The `id` of a GET /admin/v1/simulator/messages item (the provider message id of a simulated send), or a `message_id` of a single send, or a campaign message id.',
    },
    status: { type: 'string', enum: ['delivered', 'read'] },
  },
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** POST /admin/v1/simulator/inbound (a contact writes to a setor) and POST /admin/v1/simulator/receipts (the phone acknowledges a send). */
export const simulatorInboundRoutes = [
  defineRoute({
    method: 'post',
    path: '/admin/v1/simulator/inbound',
    auth: 'admin',
    operationId: 'adminSimulateInbound',
    summary: 'Simulate an inbound message',
    description:
      'As if the contact had written to the box (conversations.md §3, one transaction): a repeated `provider_message_id` is ignored; the contact (its push `name` fills an empty name), conversation and 24-hour window are found or created; a rating reply (`option_id` csat_N, or a text starting with 1-5, within 24 h of a rating request) is recorded on its closed ticket; otherwise the active ticket is joined, a recently closed one reopened, or a new one opened; tag rules run; the message is stored; message.received and the ticket events are emitted.',
    tag: 'Simulator',
    body: { schema: inboundSchema, example: { setor_id: '00000000-0000-4000-8000-000000000001', from: '+5511987654321', text: 'Oi', name: 'Maria' } },
    response: {
      status: 201,
      description: 'Received (or, for a repeated provider_message_id, the first message with `duplicate: true`).',
      data: s.object({
        message_id: s.uuid(),
        company_id: s.uuid(),
        setor_id: s.uuid(),
        from: s.string(),
        client_id: s.uuid(),
        contact_created: s.boolean(),
        conversation_id: s.uuid(),
        conversation_created: s.boolean(),
        received_at: s.dateTime(),
        window_open_until: s.dateTime(),
        tags_added: s.array(s.uuid(), { description: 'Tags the auto-tagging rules put on the contact or the ticket for this message.' }),
        ticket_id: s.nullableUuid({ description: 'The ticket the message joined (the rated ticket for a rating reply); null for a repeat.' }),
        ticket_status: s.nullableString({ enum: ['pending', 'open', 'snoozed', 'closed', null] }),
        ticket_created: s.boolean({ description: 'A new ticket was opened for it.' }),
        ticket_reopened: s.boolean({ description: 'A ticket closed within the box reopen window was reopened.' }),
        rating_recorded: s.boolean({ description: 'The message was a rating reply, recorded on its closed ticket.' }),
        duplicate: s.boolean({ description: 'The provider_message_id was received before: nothing was done.' }),
      }),
    },
    errors: ['NOT_FOUND'],
    async handler({ body, use }) {
      const result = await use(ReceiveInboundMessage).execute({
        setorId: body.setor_id.toLowerCase(),
        from: body.from,
        text: body.text ?? null,
        name: body.name ?? null,
        mediaUrl: body.media_url ?? null,
        mediaType: body.media_type ?? null,
        optionId: body.option_id ?? null,
        providerMessageId: body.provider_message_id ?? null,
      });
      return {
        message_id: result.messageId,
        company_id: result.companyId,
        setor_id: result.setorId,
        from: result.from,
        client_id: result.contactId,
        contact_created: result.contactCreated,
        conversation_id: result.conversationId,
        conversation_created: result.conversationCreated,
        received_at: result.receivedAt.toISOString(),
        window_open_until: result.windowOpenUntil.toISOString(),
        tags_added: result.tagsAdded,
        ticket_id: result.ticket?.id ?? null,
        ticket_status: result.ticket?.status ?? null,
        ticket_created: result.ticket?.created ?? false,
        ticket_reopened: result.ticket?.reopened ?? false,
        rating_recorded: result.ratingRecorded,
        duplicate: result.duplicate,
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/admin/v1/simulator/receipts',
    auth: 'admin',
    operationId: 'adminSimulateReceipt',
    summary: 'Simulate a delivery or read receipt',
    description:
      'As if the contact\'s phone had acknowledged a sent message: `delivered` or `read`, only forward (a `read` first records delivered too; each event once; a failed message never moves). Emits message.delivered / message.read.',
    tag: 'Simulator',
    body: { schema: receiptSchema, example: { message_id: '00000000-0000-4000-8000-000000000001', status: 'read' } },
    response: {
      status: 200,
      description: 'The receipt state of the message after the receipt.',
      data: s.object({
        message_id: s.uuid({ description: 'The single send or campaign message.' }),
        kind: s.enum(['message', 'campaign_message']),
        delivered_at: s.nullableDateTime(),
        read_at: s.nullableDateTime(),
        changed: s.array(s.enum(['delivered', 'read']), { description: 'What this receipt recorded ([]: nothing moved).' }),
      }),
    },
    errors: ['NOT_FOUND'],
    async handler({ body, use }) {
      const record = use(RecordReceipt);
      // The simulator outbox id is the provider message id of a simulated send; else an id of ours.
      let outcome = await record.execute({ providerMessageId: body.message_id }, body.status);
      if (!outcome.found && UUID.test(body.message_id)) outcome = await record.execute({ messageId: body.message_id.toLowerCase() }, body.status);
      if (!outcome.found) throw new NotFoundError('Message', { message_id: body.message_id });
      return {
        message_id: outcome.messageId,
        kind: outcome.kind,
        delivered_at: outcome.deliveredAt?.toISOString() ?? null,
        read_at: outcome.readAt?.toISOString() ?? null,
        changed: outcome.emitted,
      };
    },
  }),
];
