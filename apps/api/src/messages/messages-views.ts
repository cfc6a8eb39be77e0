import type { MessageRecord, SingleSendOutcome } from '@carteiro/core';

/** The 'Message send result' of the specification (plus the conversation and contact ids). */
export function sendResultView(outcome: SingleSendOutcome): Record<string, unknown> {
  return {
    message_id: outcome.messageId,
    phone: outcome.phone,
    status: outcome.status,
    setor_id: outcome.setorId,
    sender_number: outcome.senderNumber,
    timestamp: outcome.sentAt.toISOString(),
    conversation_id: outcome.conversationId,
    client_id: outcome.contactId,
  };
}

export function firstContactView(outcome: SingleSendOutcome): Record<string, unknown> {
  return {
    ...sendResultView(outcome),
    client_id: outcome.contactId,
    contact_created: outcome.contactCreated ?? false,
    affinity_created: outcome.affinityCreated ?? false,
    affinity_source: 'first_contact',
  };
}

/** A sent message after an edit, delete or reaction. */
export function messageRecordView(message: MessageRecord): Record<string, unknown> {
  const text = message.content.type === 'text' ? message.content.text : message.content.type === 'media' ? (message.content.text ?? null) : null;
  return {
    message_id: message.id,
    conversation_id: message.conversationId,
    setor_id: message.setorId,
    client_id: message.contactId,
    phone: message.phone,
    status: message.status,
    type: message.content.type,
    text,
    reaction: message.reaction,
    edited_at: message.editedAt?.toISOString() ?? null,
    deleted: message.deletedAt !== null,
    deleted_at: message.deletedAt?.toISOString() ?? null,
    sent_at: message.sentAt?.toISOString() ?? null,
  };
}
