import { EventNames, SendFailureGroups, type EventName } from '@carteiro/core';
import { type JsonSchema, s } from '../http/schema.js';

const failureCode = s.nullableString({ enum: [...Object.values(SendFailureGroups).flat(), null], description: 'Classified failure code.' });

const messageOutcome = (status: 'sent' | 'failed'): JsonSchema =>
  s.object(
    {
      campaignId: s.nullableUuid({ description: 'The campaign; null for a single send (POST /v1/messages and the other send routes).' }),
      detailId: s.uuid({ description: 'Unique id of the message (in its campaign, or the message_id of a single send).' }),
      recipientPhone: s.string(),
      recipientName: s.nullableString(),
      status: s.enum([status]),
      error: status === 'sent' ? { type: 'null' } : s.nullableString({ description: 'Raw error text.' }),
      error_code: status === 'sent' ? { type: 'null' } : failureCode,
      actual_setor_id: status === 'sent' ? s.uuid({ description: 'Number that sent; may differ from the assigned one after redistribution.' }) : s.nullableUuid(),
      was_reassigned: s.boolean(),
      messageId: s.uuid({ description: 'Single sends only.' }),
      conversationId: s.uuid({ description: 'Single sends only.' }),
      ticketId: s.nullableUuid({ description: 'Single sends and automatic ticket messages: the ticket the message belongs to; null when none.' }),
      kind: s.enum(['closing_message', 'rating_request', 'csat_thanks'], { description: 'Automatic ticket messages only (closing, CSAT).' }),
      providerMessageId: s.nullableString({ description: 'Single and timed sends: the channel provider id.' }),
      scheduledMessageId: s.uuid({ description: 'Scheduled messages only (POST /v1/scheduled-messages).' }),
      appointmentId: s.uuid({ description: 'Appointment reminders only.' }),
      reminderId: s.uuid({ description: 'Appointment reminders only.' }),
      noticeId: s.uuid({ description: 'Appointment notices (a reschedule or cancellation with `notify: true`) only.' }),
      clientId: s.uuid({ description: 'Timed sends only: the contact.' }),
    },
    { optional: ['messageId', 'conversationId', 'ticketId', 'kind', 'providerMessageId', 'scheduledMessageId', 'appointmentId', 'reminderId', 'noticeId', 'clientId'] },
  );

/** message.delivered / message.read (conversations.md §8): single sends and campaign messages. */
const receiptData = (status: 'delivered' | 'read'): JsonSchema =>
  s.object({
    messageId: s.nullableUuid({ description: 'The single send; null in campaigns.' }),
    campaignId: s.nullableUuid({ description: 'The campaign; null for single sends.' }),
    detailId: s.uuid({ description: 'The single send or campaign message.' }),
    conversationId: s.nullableUuid({ description: 'Single sends; null in campaigns.' }),
    ticketId: s.nullableUuid(),
    recipientPhone: s.string(),
    providerMessageId: s.nullableString(),
    actual_setor_id: s.uuid({ description: 'The box that sent it.' }),
    status: s.enum([status]),
    ...(status === 'delivered' ? { deliveredAt: s.dateTime() } : { readAt: s.dateTime() }),
  });

const appointmentData = (extra: Record<string, JsonSchema> = {}): JsonSchema =>
  s.object({
    appointmentId: s.uuid(),
    status: s.enum(['scheduled', 'confirmed']),
    startsAt: s.dateTime(),
    endsAt: s.dateTime(),
    timezone: s.string({ description: 'IANA zone of the unit.' }),
    appointmentTypeId: s.uuid(),
    professionalId: s.uuid(),
    unitId: s.uuid(),
    clientId: s.uuid(),
    clientPhone: s.string(),
    ticketId: s.nullableUuid(),
    ...extra,
  });

const opportunityClosed = (lost: boolean): JsonSchema =>
  s.object(
    {
      opportunityId: s.uuid(),
      title: s.string(),
      value: s.number(),
      stageId: s.uuid(),
      previousStageId: s.uuid(),
      clientId: s.uuid(),
      assigneeId: s.nullableUuid(),
      closedAt: s.dateTime(),
      ...(lost ? { lostReason: s.nullableString() } : {}),
    },
  );

/**
 * The `data` of each event this service emits (the specification's 'Data shapes' plus the shapes
 * our use cases record: packages/core campaign-events.ts, send-message.ts, receive-inbound-message.ts,
 * channel-instance.ts). Events absent here can be subscribed to but are not emitted by this version.
 */
export const eventData: Partial<Record<EventName | 'webhook.test', { summary: string; data: JsonSchema }>> = {
  'campaign.started': {
    summary: 'A campaign handed its first message to a sender',
    data: s.object({ campaignId: s.uuid(), setorId: s.nullableUuid(), userId: s.nullableString() }),
  },
  'campaign.paused': { summary: 'A campaign was paused', data: s.object({ campaignId: s.uuid() }) },
  'campaign.failed': {
    summary: 'No number of the pool can send any more; remaining messages were skipped',
    data: s.object({ campaignId: s.uuid(), error: s.string() }),
  },
  'campaign.completed': {
    summary: 'Every message of a campaign settled, or it was cancelled',
    data: s.object({
      campaignId: s.uuid(),
      totalDestinatarios: s.integer(),
      totalEnviados: s.integer(),
      totalFalhas: s.integer(),
      totalPulados: s.integer(),
      cancelledByUser: s.boolean({ description: 'True when cancelled manually.' }),
    }),
  },
  'message.sent': { summary: 'A message was sent (campaign, single send, scheduled message or reminder)', data: messageOutcome('sent') },
  'message.failed': { summary: 'A message failed (campaign, single send, scheduled message or reminder)', data: messageOutcome('failed') },
  'appointment.created': { summary: 'An appointment was booked (POST /v1/appointments)', data: appointmentData() },
  'appointment.rescheduled': {
    summary: 'An appointment moved to another time, professional or unit',
    data: appointmentData({ previousStartsAt: s.dateTime(), previousEndsAt: s.dateTime(), previousProfessionalId: s.uuid() }),
  },
  'appointment.cancelled': {
    summary: 'An appointment was cancelled; its pending reminders with it',
    data: s.object({ appointmentId: s.uuid(), startsAt: s.dateTime(), clientId: s.uuid(), reason: s.nullableString(), cancelledBy: s.enum(['api', 'admin']) }),
  },
  'message.received': {
    summary: 'A contact wrote to a box (provider webhook or simulator); not for a repeated provider message id',
    data: s.object({
      messageId: s.uuid(),
      conversationId: s.uuid(),
      contactId: s.uuid(),
      from: s.string({ description: 'E.164.' }),
      text: s.string({ description: 'The text, the caption or the option title; empty for a bare media.' }),
      receivedAt: s.dateTime(),
      ticketId: s.nullableUuid({ description: 'The ticket joined, reopened or opened; for a rating reply, the rated (closed) ticket.' }),
      ticketStatus: s.nullableString({ enum: ['pending', 'open', 'snoozed', 'closed', null] }),
      contentType: s.enum(['text', 'option', 'image', 'video', 'audio', 'document']),
      mediaUrl: s.nullableString(),
      mediaType: s.nullableString({ enum: ['image', 'video', 'audio', 'document', null] }),
      optionId: s.nullableString({ description: 'The chosen option of an interactive list or buttons (e.g. csat_5).' }),
      providerMessageId: s.nullableString(),
      contactName: s.nullableString(),
      iaAtiva: s.boolean({ description: "The contact's assistant in effect." }),
      ratingReply: s.boolean({ description: 'The message was a rating reply, recorded on its closed ticket.' }),
    }),
  },
  'message.delivered': { summary: 'A sent message reached the phone (a receipt; once, never after read)', data: receiptData('delivered') },
  'message.read': { summary: 'A sent message was read (a receipt; emitted after message.delivered, once)', data: receiptData('read') },
  'conversation.created': {
    summary: 'A ticket was opened (inbound message, POST /v1/tickets or handoff); once per new ticket',
    data: s.object({
      conversationId: s.uuid(),
      contactId: s.uuid(),
      setorId: s.uuid(),
      ticketId: s.uuid(),
      number: s.integer({ description: "The ticket's protocol number in the company." }),
      status: s.enum(['pending', 'open']),
      source: s.enum(['inbound', 'api', 'handoff']),
    }),
  },
  'conversation.assigned': {
    summary: "A ticket's agent or team changed (API, team auto-assignment or handoff)",
    data: s.object({
      conversationId: s.uuid(),
      ticketId: s.uuid(),
      agentId: s.nullableUuid(),
      teamId: s.nullableUuid(),
      previousAgentId: s.nullableUuid(),
      previousTeamId: s.nullableUuid(),
      by: s.enum(['api', 'auto', 'handoff']),
      summary: s.nullableString({ description: 'The handoff summary when `by` is `handoff`.' }),
      handoff: s.boolean(),
    }),
  },
  'conversation.rated': {
    summary: 'A closed ticket was rated (a rating reply in the chat, or POST /v1/tickets/{id}/rating); again when a rating is replaced',
    data: s.object({
      conversationId: s.uuid(),
      ticketId: s.uuid(),
      contactId: s.uuid(),
      agentId: s.nullableUuid({ description: 'The agent credited (the assignee at closing).' }),
      teamId: s.nullableUuid({ description: 'The team credited (at closing).' }),
      score: s.integer({ minimum: 1, maximum: 5 }),
      comment: s.nullableString(),
      ratedAt: s.dateTime(),
      source: s.enum(['reply', 'api'], { description: '`reply`: the contact answered in the chat; `api`: POST /v1/tickets/{id}/rating.' }),
    }),
  },
  'conversation.status_changed': {
    summary: 'A ticket moved to another status',
    data: s.object({
      conversationId: s.uuid(),
      ticketId: s.uuid(),
      from: s.enum(['pending', 'open', 'snoozed', 'closed']),
      to: s.enum(['pending', 'open', 'snoozed', 'closed']),
      snoozedUntil: s.nullableDateTime(),
      reason: s.nullableString({ description: 'The close reason, or snooze_expired, contact_wrote, assigned, handoff, reopened.' }),
    }),
  },
  'contact.created': {
    summary: 'A contact was created by a send, an inbound message, POST /v1/contacts or an import',
    data: s.object({ contactId: s.uuid(), phone: s.string(), name: s.nullableString(), source: s.enum(['first_contact', 'message', 'inbound', 'api', 'import']) }),
  },
  'contact.tagged': {
    summary: 'Tags were added to a contact (first contact, POST /v1/contacts, an auto-tagging rule, an import)',
    data: s.object({
      contactId: s.uuid(),
      tagIds: s.array(s.string(), { description: 'The tags newly added.' }),
      source: s.enum(['api', 'rule', 'import', 'first_contact']),
      ruleId: s.nullableUuid({ description: 'The rule, when `source` is `rule`; else null.' }),
    }),
  },
  'contact.merged': {
    summary: 'Another contact was merged into this one',
    data: s.object({ contactId: s.uuid(), mergedContactId: s.uuid(), phone: s.string(), mergedPhone: s.string(), movedTickets: s.integer() }),
  },
  'import.completed': {
    summary: 'A contact import wrote its last batch',
    data: s.object({ jobId: s.uuid(), total: s.integer(), created: s.integer(), updated: s.integer(), skipped: s.integer(), failed: s.integer() }),
  },
  'import.failed': {
    summary: 'A contact import stopped',
    data: s.object({ jobId: s.uuid(), processed: s.integer(), error: s.object({ code: s.string(), message: s.string() }) }),
  },
  'lead.search_completed': {
    summary: 'A lead search finished (POST /v1/leads/search)',
    data: s.object({
      jobId: s.uuid(),
      status: s.enum(['completed', 'failed']),
      total: s.integer({ description: 'Leads the source has for the criteria.' }),
      returned: s.integer({ description: 'Leads stored (each cost 1 lead credit on live keys).' }),
      creditsUsed: s.integer(),
      error: s.nullableString({ description: '`lead_credits_exhausted` when credits ran out, or the source failure.' }),
    }),
  },
  'lead.saved_to_crm': {
    summary: 'Leads were saved as contacts (POST /v1/leads/save-to-crm)',
    data: s.object({ jobId: s.nullableUuid(), created: s.integer(), updated: s.integer(), skipped: s.integer(), contactIds: s.array(s.uuid()) }),
  },
  'payment.received': {
    summary: 'The operator recorded a payment (POST /admin/v1/companies/{id}/payments)',
    data: s.object({
      paymentId: s.uuid(),
      kind: s.enum(['messages', 'ai_credits', 'lead_credits']),
      units: s.integer(),
      amount: s.number({ description: 'BRL.' }),
      method: s.enum(['pix', 'boleto', 'card', 'manual']),
      externalRef: s.string(),
      balanceAfter: s.integer(),
      paidAt: s.dateTime(),
    }),
  },
  'billing.low_balance': {
    summary: "A debit crossed a balance's threshold or emptied it (once until a payment)",
    data: s.object({
      kind: s.enum(['messages', 'ai_credits', 'lead_credits']),
      balance: s.integer(),
      threshold: s.nullableInteger(),
      level: s.enum(['low', 'exhausted']),
      modality: s.string(),
    }),
  },
  'opportunity.created': {
    summary: 'An opportunity was created (POST /v1/crm/opportunities)',
    data: s.object({
      opportunityId: s.uuid(),
      title: s.string(),
      value: s.number({ description: 'BRL: the value set, else the products total.' }),
      status: s.enum(['open', 'won', 'lost'], { description: 'As created (a final stage closes it at once; opportunity.won/.lost follows).' }),
      stageId: s.uuid(),
      clientId: s.uuid(),
      assigneeId: s.nullableUuid(),
      ticketId: s.nullableUuid(),
    }),
  },
  'opportunity.won': { summary: 'An opportunity reached the won stage', data: opportunityClosed(false) },
  'opportunity.lost': { summary: 'An opportunity reached a lost stage', data: opportunityClosed(true) },
  'contract.sent': {
    summary: 'A contract was sent for signature (POST /v1/contracts/:id/send); actor.user_id is the x-actor-user-id header',
    data: s.object({
      contractId: s.uuid(),
      title: s.string(),
      value: { type: ['number', 'null'] },
      clientId: s.uuid(),
      opportunityId: s.nullableUuid(),
      signerCount: s.integer({ minimum: 1 }),
      sentAt: s.dateTime(),
      expiresAt: s.dateTime(),
      provider: s.string({ description: 'simulator or zapsign.' }),
    }),
  },
  'contract.signed': {
    summary: 'Every signer signed a contract',
    data: s.object({ contractId: s.uuid(), clientId: s.uuid(), opportunityId: s.nullableUuid(), signedAt: s.dateTime(), documentSha256: s.nullableString() }),
  },
  'contract.refused': {
    summary: 'A signer refused a contract',
    data: s.object({ contractId: s.uuid(), clientId: s.uuid(), opportunityId: s.nullableUuid(), refusedAt: s.dateTime(), signerId: s.uuid(), reason: s.nullableString() }),
  },
  'channel.session_connected': {
    summary: 'A number connected',
    data: s.object({ instanceId: s.uuid(), setorId: s.uuid(), phoneNumber: s.nullableString() }),
  },
  'channel.session_disconnected': {
    summary: 'A connected number was disconnected',
    data: s.object({
      instanceId: s.uuid(),
      setorId: s.uuid(),
      phoneNumber: s.nullableString(),
      reason: s.enum(['user', 'sender_failure', 'session_lost']),
      error_code: failureCode,
      error: s.nullableString(),
    }),
  },
  'webhook.test': {
    summary: 'Test delivery (POST /v1/webhooks/{id}/test)',
    data: s.object({ webhook_id: s.uuid(), message: s.string() }),
  },
};

/** Component name of an event's envelope schema: `message.sent` → `MessageSentEvent`. */
export function eventSchemaName(event: string): string {
  return `${event.split(/[._]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('')}Event`;
}

function envelope(event: string, data: JsonSchema): JsonSchema {
  return s.object({
    event: s.enum([event]),
    version: s.enum(['v1']),
    timestamp: s.dateTime(),
    empresa_id: s.uuid({ description: 'The company.' }),
    setor_id: s.nullableUuid({ description: 'The box; null for events without one.' }),
    data,
    actor: s.object({
      user_id: s.nullableString(),
      source: s.string({ description: "'system' (worker, campaign engine, inbound traffic), 'api' (an API key's request), 'admin' (an operator's /admin/v1 request), 'contact' (a contact's rating reply) or 'signing:<provider>'." }),
    }),
  });
}

const deliveryHeaders = [
  { name: 'X-Webhook-Id', description: 'Unique delivery id, the same on every attempt and redelivery: deduplicate on it.', schema: s.uuid() },
  { name: 'X-Webhook-Timestamp', description: 'Unix seconds of sending.', schema: s.string({ pattern: '^[0-9]+$' }) },
  {
    name: 'X-Webhook-Signature',
    description:
      "Lowercase hex HMAC-SHA256 of '<X-Webhook-Timestamp>.<raw body>' keyed with the webhook secret. " +
      'Compare in constant time and reject timestamps older than 300 seconds (`verifyWebhookSignature` in @carteiro/sdk).',
    schema: s.string({ pattern: '^[0-9a-f]{64}$' }),
  },
];

/** Envelope schemas by component name, and the OpenAPI `webhooks` map (one POST per event name). */
export function webhookEvents(): { schemas: Record<string, JsonSchema>; webhooks: Record<string, unknown> } {
  const schemas: Record<string, JsonSchema> = {};
  const webhooks: Record<string, unknown> = {};
  for (const event of [...EventNames, 'webhook.test' as const]) {
    const known = eventData[event];
    const name = eventSchemaName(event);
    schemas[name] = envelope(
      event,
      known?.data ?? { type: 'object', description: 'Not emitted by this version of the service; the fields of its data are not fixed yet.' },
    );
    webhooks[event] = {
      post: {
        operationId: `on${name}`,
        summary: known?.summary ?? `${event} (not emitted yet)`,
        description:
          event === 'webhook.test'
            ? 'Sent only by the test endpoint, to the webhook tested, whatever its events.'
            : `Delivered to every active webhook subscribed to \`${event}\`. Retried with exponential backoff on 5xx, 429, network errors and ` +
              'answers slower than 5 seconds, 5 attempts in all.',
        tags: ['Webhook events'],
        parameters: deliveryHeaders.map((h) => ({ in: 'header', required: true, ...h })),
        requestBody: { required: true, content: { 'application/json': { schema: s.ref(name) } } },
        responses: {
          '200': { description: 'Any 2xx within 5 seconds acknowledges the delivery.' },
          '4XX': { description: 'Ends the delivery as failed (429 excepted: retried).' },
          '5XX': { description: 'Retried later.' },
        },
        security: [],
      },
    };
  }
  return { schemas, webhooks };
}
