import {
  Clock,
  MAX_BUTTON_TITLE,
  MAX_BUTTONS,
  MAX_LIST_ROWS,
  MAX_POLL_OPTIONS,
  MAX_ROW_TITLE,
  MAX_TEXT_LENGTH,
  MIN_POLL_OPTIONS,
  ManageSentMessage,
  MediaTypes,
  MEDIA_DELIVERIES,
  SendMessage,
  ValidationError,
  standardContent,
  validateEvent,
  validateInteractive,
  validatePoll,
  type SenderSelection,
} from '@carteiro/core';
import { defineRoute, type ParameterSpec, type RouteDefinition } from '../http/route.js';
import { UNIX_SECONDS_MAX, component, s, typed, type JsonSchema, type TypedSchema } from '../http/schema.js';
import { contentInput, type ContentBody } from './content-body.js';
import { firstContactView, messageRecordView, sendResultView } from './messages-views.js';

// ---- Request schemas -------------------------------------------------------------------------

const phone = { type: 'string', maxLength: 64, description: 'Recipient; Brazilian numbers are normalised to E.164.' };
const text = { type: 'string', maxLength: MAX_TEXT_LENGTH };

/** The setor-selection fields shared by every send route. */
const selectionProperties = {
  setor_id: { type: 'string', minLength: 1, maxLength: 64 },
  setor_ids: { type: 'array', items: { type: 'string', maxLength: 64 }, minItems: 1, maxItems: 100 },
  team_id: { type: 'string', minLength: 1, maxLength: 64 },
  multi_number: { type: 'boolean' },
} as const;

/** The media and template fields of POST /v1/messages (under `message`) and of first-contact (top level). */
const contentProperties = {
  media_url: { type: 'string', minLength: 1, maxLength: 2048 },
  media_type: { type: 'string', enum: [...MediaTypes] },
  media_delivery: { type: 'string', enum: [...MEDIA_DELIVERIES] },
  media_filename: { type: 'string', minLength: 1, maxLength: 255 },
  template_name: { type: 'string', minLength: 1, maxLength: 512 },
  template_language: { type: 'string', minLength: 2, maxLength: 16 },
  template_components: { type: 'array', maxItems: 100 },
} as const;

export interface SelectionBody {
  setor_id?: string;
  setor_ids?: string[];
  team_id?: string;
  multi_number?: boolean;
}

export interface SendMessageBody extends SelectionBody {
  phone?: string;
  client_id?: string;
  message: ContentBody & { text?: string };
}

export const sendMessageSchema = typed<SendMessageBody>({
  type: 'object',
  required: ['message'],
  properties: {
    phone,
    client_id: { type: 'string', minLength: 1, maxLength: 64 },
    ...selectionProperties,
    message: { type: 'object', properties: { text, ...contentProperties } },
  },
});

export interface FirstContactBody extends SelectionBody, ContentBody {
  phone: string;
  name?: string;
  message?: string;
  tags?: string[];
}

export const firstContactSchema = typed<FirstContactBody>({
  type: 'object',
  required: ['phone'],
  properties: {
    phone,
    name: { type: 'string', maxLength: 255 },
    message: text,
    tags: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 64 }, maxItems: 50 },
    ...selectionProperties,
    ...contentProperties,
  },
});

/**
 * The body of a send of one structured content (`interactive`, `event`, `poll`) to one phone: the phone, the
 * sender selection and the content object under its own name, with its `required` fields and `properties`.
 */
function phoneAndContent<Body>(name: string, content: { required: string[]; properties: Record<string, unknown> }) {
  return typed<Body>({
    type: 'object',
    required: ['phone', name],
    properties: { phone, ...selectionProperties, [name]: { type: 'object', required: content.required, properties: content.properties } },
  });
}

export interface InteractiveBody extends SelectionBody {
  phone: string;
  interactive: {
    type: 'button' | 'list';
    body: { text: string };
    action: {
      buttons?: { type: 'reply'; reply: { id: string; title: string } }[];
      sections?: { title?: string; rows: { id: string; title: string; description?: string }[] }[];
      button?: string;
    };
  };
}

const replyId = { type: 'string', minLength: 1, maxLength: 256 };

export const interactiveSchema = phoneAndContent<InteractiveBody>('interactive', {
  required: ['type', 'body', 'action'],
  properties: {
    type: { type: 'string', enum: ['button', 'list'] },
    body: { type: 'object', required: ['text'], properties: { text: { ...text, minLength: 1 } } },
    action: {
      type: 'object',
      properties: {
        buttons: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_BUTTONS,
          items: {
            type: 'object',
            required: ['type', 'reply'],
            properties: {
              type: { type: 'string', enum: ['reply'] },
              reply: {
                type: 'object',
                required: ['id', 'title'],
                properties: { id: replyId, title: { type: 'string', minLength: 1, maxLength: MAX_BUTTON_TITLE } },
              },
            },
          },
        },
        sections: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_LIST_ROWS,
          description: `A list holds 1 to ${MAX_LIST_ROWS} rows over all its sections.`,
          items: {
            type: 'object',
            required: ['rows'],
            properties: {
              title: { type: 'string', maxLength: MAX_ROW_TITLE },
              rows: {
                type: 'array',
                minItems: 1,
                maxItems: MAX_LIST_ROWS,
                items: {
                  type: 'object',
                  required: ['id', 'title'],
                  properties: {
                    id: replyId,
                    title: { type: 'string', minLength: 1, maxLength: MAX_ROW_TITLE },
                    description: { type: 'string', maxLength: 72 },
                  },
                },
              },
            },
          },
        },
        button: { type: 'string', maxLength: 20 },
      },
    },
  },
});

export interface EventBody extends SelectionBody {
  phone: string;
  event: { name: string; startTime: number; endTime?: number; description?: string; location?: string; extraGuestsAllowed?: boolean };
}

/** Unix seconds: a number, as the specification types startTime and endTime (a fraction such as Date.now() / 1000 gives is accepted). */
const unixSeconds = { type: 'number', minimum: 0, maximum: UNIX_SECONDS_MAX };

export const eventSchema = phoneAndContent<EventBody>('event', {
  required: ['name', 'startTime'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    startTime: { ...unixSeconds, description: 'Unix seconds; must be in the future.' },
    endTime: { ...unixSeconds, description: 'Unix seconds; after startTime.' },
    description: { type: 'string', maxLength: 2048 },
    location: { type: 'string', maxLength: 512 },
    extraGuestsAllowed: { type: 'boolean' },
  },
});

export interface PollBody extends SelectionBody {
  phone: string;
  poll: { name: string; options: string[]; multipleAnswers?: boolean };
}

export const pollSchema = phoneAndContent<PollBody>('poll', {
  required: ['name', 'options'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    options: {
      type: 'array',
      minItems: MIN_POLL_OPTIONS,
      maxItems: MAX_POLL_OPTIONS,
      uniqueItems: true,
      items: { type: 'string', minLength: 1, maxLength: 100 },
    },
    multipleAnswers: { type: 'boolean' },
  },
});

export const editMessageSchema = typed<{ text: string }>({
  type: 'object',
  required: ['text'],
  properties: { text },
});

export const reactionSchema = typed<{ emoji: string }>({
  type: 'object',
  required: ['emoji'],
  properties: { emoji: { type: 'string', maxLength: 32, description: 'One emoji; empty removes the reaction.' } },
});

// ---- Response schemas ------------------------------------------------------------------------

const sendResultProperties = {
  message_id: s.uuid({ description: 'Id of the sent message (the `:conversa_id` of edit, delete and reaction).' }),
  phone: s.string({ description: 'Recipient in E.164.' }),
  status: s.enum(['sent']),
  setor_id: s.uuid({ description: 'Box that sent.' }),
  sender_number: s.nullableString({ description: 'Number that sent.' }),
  timestamp: s.dateTime(),
  conversation_id: s.uuid(),
  client_id: s.uuid({ description: 'The contact.' }),
};

const result = (extra: Record<string, JsonSchema> = {}) => s.object({ ...sendResultProperties, ...extra });

const MessageSendResult = component('MessageSendResult', result());
const FirstContactResult = component(
  'FirstContactResult',
  result({ contact_created: s.boolean(), affinity_created: s.boolean(), affinity_source: s.enum(['first_contact']) }),
);

/** A sent message after an edit, delete or reaction. */
const messageRecordProperties = {
  message_id: s.uuid(),
  conversation_id: s.uuid(),
  setor_id: s.uuid(),
  client_id: s.uuid(),
  phone: s.string(),
  status: s.enum(['pending', 'sent', 'failed', 'delivered', 'read'], { description: 'delivered and read come from the channel\'s receipts (only forward).' }),
  type: s.enum(['text', 'media', 'template', 'interactive', 'poll', 'event'], { description: 'What was sent.' }),
  text: s.nullableString(),
  reaction: s.nullableString(),
  edited_at: s.nullableDateTime(),
  deleted: s.boolean(),
  deleted_at: s.nullableDateTime(),
  sent_at: s.nullableDateTime(),
};
const MessageRecord = component('MessageRecord', s.object(messageRecordProperties));

// ---- Routes ----------------------------------------------------------------------------------

/** `:conversa_id` is the `message_id` a send answered with; a malformed one is a 400 BAD_REQUEST. */
const conversaId: Record<string, ParameterSpec> = {
  conversa_id: {
    schema: { type: 'string', format: 'uuid' },
    description: 'The `message_id` a send answered with; a malformed one is a 400.',
    malformed: (value) => new ValidationError('conversa_id must be the message_id of a sent message', { field: 'conversa_id', value }, 'BAD_REQUEST'),
  },
};

function selection(body: SelectionBody): SenderSelection {
  return { setorId: body.setor_id ?? null, setorIds: body.setor_ids ?? null, teamId: body.team_id ?? null, multiNumber: body.multi_number ?? null };
}

/** Errors every send may answer (beyond auth, scope, rate limit and validation). */
const sendErrors = ['BAD_REQUEST', 'INVALID_NUMBER', 'BULK_DISABLED', 'PLAN_EXPIRED', 'MULTI_NUMBER_DISABLED', 'NOT_FOUND', 'UNPROCESSABLE', 'WINDOW_EXPIRED', 'PROVIDER_ERROR', 'SERVICE_UNAVAILABLE'] as const;
const manageErrors = ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE', 'PROVIDER_ERROR', 'SERVICE_UNAVAILABLE'] as const;
const write = { scope: 'messages:write' } as const;

/**
 * A change to one message the company sent, by its `conversa_id` (`ManageSentMessage`): the
 * routes share the scope, the 400 BAD_REQUEST of the specification and the errors of a change
 * the number or the provider may refuse.
 */
function sentMessageRoute<Body = undefined>(route: {
  method: 'patch' | 'delete' | 'post';
  path: string;
  operationId: string;
  summary: string;
  description: string;
  body?: { schema: TypedSchema<Body>; example?: unknown };
  response: { description: string; data: JsonSchema };
  change(manage: ManageSentMessage, companyId: string, id: string, body: Body): Promise<unknown>;
}): RouteDefinition {
  const { response, change, ...rest } = route;
  return defineRoute<string, Record<string, never>, Body>({
    ...rest,
    auth: write,
    tag: 'Messages',
    params: conversaId,
    validationCode: 'BAD_REQUEST',
    response: { status: 200, ...response },
    errors: manageErrors,
    async handler({ params, body, principal, use }) {
      return change(use(ManageSentMessage), principal.company.id, (params as { conversa_id: string }).conversa_id, body);
    },
  });
}

/** Every /v1/messages route (scope messages:write). The specification answers malformed bodies with BAD_REQUEST here. */
export const messagesRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/messages',
    auth: write,
    operationId: 'sendMessage',
    summary: 'Send a message',
    description:
      'Synchronous single message (text, media or template); no campaign, no anti-ban delay. `phone` or `client_id` names the recipient; ' +
      '`setor_id`, `setor_ids`, `team_id` or `multi_number` choose the sending box (one pool mode per call). ' +
      'A provider failure answers 502 PROVIDER_ERROR and refunds the credit.',
    tag: 'Messages',
    body: { schema: sendMessageSchema, example: { phone: '+5511987654321', message: { text: 'Olá!' } } },
    validationCode: 'BAD_REQUEST',
    response: { status: 201, description: 'Sent.', data: MessageSendResult },
    errors: sendErrors,
    async handler({ body, principal, use }) {
      const content = standardContent(contentInput(body.message, body.message.text), 'message.');
      const { company, apiKey } = principal;
      const outcome = await use(SendMessage).send({ companyId: company.id, keyMode: apiKey.mode, phone: body.phone, clientId: body.client_id, selection: selection(body), content });
      return sendResultView(outcome);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/messages/first-contact',
    auth: write,
    operationId: 'sendFirstContact',
    summary: 'Send a first-contact message',
    description: 'Sends, creates the contact if absent, creates the affinity with the sending number and optionally tags the contact.',
    tag: 'Messages',
    body: { schema: firstContactSchema, example: { phone: '+5511987654321', name: 'Ana', message: 'Olá, Ana!' } },
    validationCode: 'BAD_REQUEST',
    response: { status: 201, description: 'Sent.', data: FirstContactResult },
    errors: sendErrors,
    async handler({ body, principal, use }) {
      const content = standardContent(contentInput(body, body.message), '', 'message');
      const { company, apiKey } = principal;
      const outcome = await use(SendMessage).sendFirstContact({
        companyId: company.id,
        keyMode: apiKey.mode,
        phone: body.phone,
        name: body.name ?? null,
        tagIds: body.tags ?? [],
        selection: selection(body),
        content,
      });
      return firstContactView(outcome);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/messages/interactive',
    auth: write,
    operationId: 'sendInteractive',
    summary: 'Send buttons or a list',
    description: `Up to ${MAX_BUTTONS} reply buttons (title up to ${MAX_BUTTON_TITLE} characters) or a list of up to ${MAX_LIST_ROWS} rows (title up to ${MAX_ROW_TITLE}). Channels without interactive messages get a numbered text.`,
    tag: 'Messages',
    body: { schema: interactiveSchema },
    validationCode: 'BAD_REQUEST',
    response: { status: 201, description: 'Sent.', data: result({ interactive_type: s.enum(['button', 'list']) }) },
    errors: sendErrors,
    async handler({ body, principal, use }) {
      const i = body.interactive;
      const interactive = validateInteractive({
        type: i.type,
        bodyText: i.body.text,
        ...(i.action.buttons ? { buttons: i.action.buttons.map((b) => ({ id: b.reply.id, title: b.reply.title })) } : {}),
        ...(i.action.sections ? { sections: i.action.sections } : {}),
        ...(i.action.button ? { buttonText: i.action.button } : {}),
      });
      const { company, apiKey } = principal;
      const outcome = await use(SendMessage).send({ companyId: company.id, keyMode: apiKey.mode, phone: body.phone, selection: selection(body), content: { type: 'interactive', interactive } });
      return { ...sendResultView(outcome), interactive_type: interactive.type };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/messages/event',
    auth: write,
    operationId: 'sendEvent',
    summary: 'Send a calendar event card',
    description: '`startTime` and `endTime` are Unix seconds; the start must be in the future. Channels without event cards get a formatted text.',
    tag: 'Messages',
    body: { schema: eventSchema },
    validationCode: 'BAD_REQUEST',
    response: {
      status: 201,
      description: 'Sent.',
      data: result({ event_name: s.string(), start_time: s.integer({ description: 'Unix seconds.' }), end_time: s.nullableInteger({ description: 'Unix seconds.' }) }),
    },
    errors: sendErrors,
    async handler({ body, principal, use }) {
      const event = validateEvent(body.event, use<Clock>(Clock).now());
      const { company, apiKey } = principal;
      const outcome = await use(SendMessage).send({ companyId: company.id, keyMode: apiKey.mode, phone: body.phone, selection: selection(body), content: { type: 'event', event } });
      return { ...sendResultView(outcome), event_name: event.name, start_time: event.startTime, end_time: event.endTime ?? null };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/messages/poll',
    auth: write,
    operationId: 'sendPoll',
    summary: 'Send a poll',
    description: `${MIN_POLL_OPTIONS} to ${MAX_POLL_OPTIONS} distinct options.`,
    tag: 'Messages',
    body: { schema: pollSchema },
    validationCode: 'BAD_REQUEST',
    response: { status: 201, description: 'Sent.', data: result({ poll_name: s.string(), options_count: s.integer({ minimum: MIN_POLL_OPTIONS, maximum: MAX_POLL_OPTIONS }) }) },
    errors: sendErrors,
    async handler({ body, principal, use }) {
      const poll = validatePoll({ name: body.poll.name, options: body.poll.options, multipleAnswers: body.poll.multipleAnswers ?? false });
      const { company, apiKey } = principal;
      const outcome = await use(SendMessage).send({ companyId: company.id, keyMode: apiKey.mode, phone: body.phone, selection: selection(body), content: { type: 'poll', poll } });
      return { ...sendResultView(outcome), poll_name: poll.name, options_count: poll.options.length };
    },
  }),
  sentMessageRoute({
    method: 'patch',
    path: '/v1/messages/:conversa_id',
    operationId: 'editMessage',
    summary: 'Edit a sent message',
    description: 'Text of a message sent from a QR-connected number, within about 15 minutes of sending.',
    body: { schema: editMessageSchema },
    response: { description: 'The edited message.', data: MessageRecord },
    change: async (manage, companyId, id, body) => messageRecordView(await manage.edit(companyId, id, body.text)),
  }),
  sentMessageRoute({
    method: 'delete',
    path: '/v1/messages/:conversa_id',
    operationId: 'deleteMessage',
    summary: 'Delete a sent message',
    description: 'Soft delete for everyone; QR-connected numbers; no credit charged.',
    response: { description: 'The deleted message.', data: MessageRecord },
    change: async (manage, companyId, id) => messageRecordView(await manage.delete(companyId, id)),
  }),
  sentMessageRoute({
    method: 'post',
    path: '/v1/messages/:conversa_id/reaction',
    operationId: 'reactToMessage',
    summary: 'React to a sent message',
    description: 'An empty `emoji` removes the reaction.',
    body: { schema: reactionSchema, example: { emoji: '👍' } },
    response: { description: 'The message with its reaction.', data: s.object({ ...messageRecordProperties, removed: s.boolean() }) },
    async change(manage, companyId, id, body) {
      const message = await manage.react(companyId, id, body.emoji);
      return { ...messageRecordView(message), removed: message.reaction === null };
    },
  }),
];
