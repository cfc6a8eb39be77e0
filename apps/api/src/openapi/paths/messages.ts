import {
  editMessageSchema,
  eventSchema,
  firstContactSchema,
  interactiveSchema,
  pollSchema,
  reactionSchema,
  sendMessageSchema,
} from '../../messages/messages.schemas.js';
import { type ApiOperation, type JsonSchema, s } from '../operation.js';

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

export const MessageSendResult = result();
export const FirstContactResult = result({
  contact_created: s.boolean(),
  affinity_created: s.boolean(),
  affinity_source: s.enum(['first_contact']),
});

/** A sent message after an edit, delete or reaction. */
export const MessageRecord = s.object({
  message_id: s.uuid(),
  conversation_id: s.uuid(),
  setor_id: s.uuid(),
  client_id: s.uuid(),
  phone: s.string(),
  status: s.enum(['pending', 'sent', 'failed']),
  type: s.enum(['text', 'media', 'template', 'interactive', 'poll', 'event'], { description: 'What was sent.' }),
  text: s.nullableString(),
  reaction: s.nullableString(),
  edited_at: s.nullableDateTime(),
  deleted: s.boolean(),
  deleted_at: s.nullableDateTime(),
  sent_at: s.nullableDateTime(),
});

const conversaId = {
  conversa_id: { schema: { type: 'string', format: 'uuid' }, description: 'The `message_id` a send answered with; a malformed one is a 400.' },
};

/** Errors every send may answer (beyond auth, scope, rate limit and validation). */
const sendErrors = ['INVALID_NUMBER', 'BULK_DISABLED', 'PLAN_EXPIRED', 'MULTI_NUMBER_DISABLED', 'NOT_FOUND', 'UNPROCESSABLE', 'WINDOW_EXPIRED', 'PROVIDER_ERROR', 'SERVICE_UNAVAILABLE'] as const;

/** Every /v1/messages route (messages.controller.ts). */
export const messagesOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/v1/messages',
    operationId: 'sendMessage',
    summary: 'Send a message',
    description:
      'Synchronous single message (text, media or template); no campaign, no anti-ban delay. `phone` or `client_id` names the recipient; ' +
      '`setor_id`, `setor_ids`, `team_id` or `multi_number` choose the sending box (one pool mode per call). ' +
      'A provider failure answers 502 PROVIDER_ERROR and refunds the credit.',
    tag: 'Messages',
    auth: { scope: 'messages:write' },
    body: { schema: sendMessageSchema, example: { phone: '+5511987654321', message: { text: 'Olá!' } } },
    success: { status: 201, description: 'Sent.', data: s.ref('MessageSendResult') },
    errors: [...sendErrors],
  },
  {
    method: 'post',
    path: '/v1/messages/first-contact',
    operationId: 'sendFirstContact',
    summary: 'Send a first-contact message',
    description: 'Sends, creates the contact if absent, creates the affinity with the sending number and optionally tags the contact.',
    tag: 'Messages',
    auth: { scope: 'messages:write' },
    body: { schema: firstContactSchema, example: { phone: '+5511987654321', name: 'Ana', message: 'Olá, Ana!' } },
    success: { status: 201, description: 'Sent.', data: s.ref('FirstContactResult') },
    errors: [...sendErrors],
  },
  {
    method: 'post',
    path: '/v1/messages/interactive',
    operationId: 'sendInteractive',
    summary: 'Send buttons or a list',
    description: 'Up to 3 reply buttons (title up to 20 characters) or a list of up to 10 rows (title up to 24). Channels without interactive messages get a numbered text.',
    tag: 'Messages',
    auth: { scope: 'messages:write' },
    body: { schema: interactiveSchema },
    success: { status: 201, description: 'Sent.', data: result({ interactive_type: s.enum(['button', 'list']) }) },
    errors: [...sendErrors],
  },
  {
    method: 'post',
    path: '/v1/messages/event',
    operationId: 'sendEvent',
    summary: 'Send a calendar event card',
    description: '`startTime` and `endTime` are Unix seconds; the start must be in the future. Channels without event cards get a formatted text.',
    tag: 'Messages',
    auth: { scope: 'messages:write' },
    body: { schema: eventSchema },
    success: {
      status: 201,
      description: 'Sent.',
      data: result({ event_name: s.string(), start_time: s.integer({ description: 'Unix seconds.' }), end_time: s.nullableInteger({ description: 'Unix seconds.' }) }),
    },
    errors: [...sendErrors],
  },
  {
    method: 'post',
    path: '/v1/messages/poll',
    operationId: 'sendPoll',
    summary: 'Send a poll',
    description: '2 to 12 options.',
    tag: 'Messages',
    auth: { scope: 'messages:write' },
    body: { schema: pollSchema },
    success: { status: 201, description: 'Sent.', data: result({ poll_name: s.string(), options_count: s.integer({ minimum: 2, maximum: 12 }) }) },
    errors: [...sendErrors],
  },
  {
    method: 'patch',
    path: '/v1/messages/:conversa_id',
    operationId: 'editMessage',
    summary: 'Edit a sent message',
    description: 'Text of a message sent from a QR-connected number, within about 15 minutes of sending.',
    tag: 'Messages',
    auth: { scope: 'messages:write' },
    pathParams: conversaId,
    body: { schema: editMessageSchema },
    success: { status: 200, description: 'The edited message.', data: s.ref('MessageRecord') },
    errors: ['NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE', 'PROVIDER_ERROR', 'SERVICE_UNAVAILABLE'],
  },
  {
    method: 'delete',
    path: '/v1/messages/:conversa_id',
    operationId: 'deleteMessage',
    summary: 'Delete a sent message',
    description: 'Soft delete for everyone; QR-connected numbers; no credit charged.',
    tag: 'Messages',
    auth: { scope: 'messages:write' },
    pathParams: conversaId,
    success: { status: 200, description: 'The deleted message.', data: s.ref('MessageRecord') },
    errors: ['NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE', 'PROVIDER_ERROR', 'SERVICE_UNAVAILABLE'],
  },
  {
    method: 'post',
    path: '/v1/messages/:conversa_id/reaction',
    operationId: 'reactToMessage',
    summary: 'React to a sent message',
    description: 'An empty `emoji` removes the reaction.',
    tag: 'Messages',
    auth: { scope: 'messages:write' },
    pathParams: conversaId,
    body: { schema: reactionSchema, example: { emoji: '👍' } },
    success: {
      status: 200,
      description: 'The message with its reaction.',
      data: s.object({ ...(MessageRecord.properties as Record<string, JsonSchema>), removed: s.boolean() }),
    },
    errors: ['NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE', 'PROVIDER_ERROR', 'SERVICE_UNAVAILABLE'],
  },
];

export const messagesSchemas = { MessageSendResult, FirstContactResult, MessageRecord };
