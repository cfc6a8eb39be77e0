import { MAX_TEXT_LENGTH, ReceiveInboundMessage } from '@carteiro/core';
import { defineRoute } from '../http/route.js';
import { s, typed } from '../http/schema.js';

export const inboundSchema = typed<{ setor_id: string; from: string; text: string }>({
  type: 'object',
  required: ['setor_id', 'from', 'text'],
  properties: {
    setor_id: { type: 'string', format: 'uuid' },
    from: { type: 'string', minLength: 1, maxLength: 64, description: 'The contact writing, e.g. +5511987654321.' },
    text: { type: 'string', minLength: 1, maxLength: MAX_TEXT_LENGTH },
  },
});

/** POST /admin/v1/simulator/inbound: a contact writes to a setor (opens the official 24-hour window). */
export const simulatorInboundRoutes = [
  defineRoute({
    method: 'post',
    path: '/admin/v1/simulator/inbound',
    auth: 'admin',
    operationId: 'adminSimulateInbound',
    summary: 'Simulate an inbound message',
    description: 'As if the contact had written to the box: opens the 24-hour window, finds or creates the contact and conversation, emits message.received.',
    tag: 'Simulator',
    body: { schema: inboundSchema, example: { setor_id: '00000000-0000-4000-8000-000000000001', from: '+5511987654321', text: 'Oi' } },
    response: {
      status: 201,
      description: 'Received.',
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
        tags_added: s.array(s.uuid(), { description: 'Tags the auto-tagging rules put on the contact for this text.' }),
      }),
    },
    errors: ['NOT_FOUND'],
    async handler({ body, use }) {
      const result = await use(ReceiveInboundMessage).execute({ setorId: body.setor_id.toLowerCase(), from: body.from, text: body.text });
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
      };
    },
  }),
];
