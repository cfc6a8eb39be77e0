import type { KeyMode } from '../api-keys/index.js';
import { FRESH_MESSAGE_FIELDS, type MessageActivity, type MessageAuthor, type MessageContent, type MessageRecord, type MessageStatus } from '../messages/index.js';
import type { Ticket } from './ticket.js';

/** What a row of a ticket's timeline written by the tickets area is made of. */
export interface TicketMessageFields {
  id: string;
  /** The contact's number. */
  phone: string;
  at: Date;
  type: NonNullable<MessageRecord['type']>;
  author: MessageAuthor;
  content: MessageContent;
  /** Notes and activities are complete when written (`sent`); automatic sends start `pending`. */
  status?: MessageStatus;
  keyMode?: KeyMode;
  senderNumber?: string | null;
  activity?: MessageActivity;
}

/**
 * An outbound row of a ticket's timeline — a note, an activity, or the pending message of an
 * automatic send — on the ticket's conversation, box and contact, with nothing sent yet.
 */
export function ticketMessage(ticket: Pick<Ticket, 'id' | 'companyId' | 'conversationId' | 'setorId' | 'contactId'>, fields: TicketMessageFields): MessageRecord {
  return {
    id: fields.id,
    companyId: ticket.companyId,
    conversationId: ticket.conversationId,
    setorId: ticket.setorId,
    contactId: ticket.contactId,
    phone: fields.phone,
    senderNumber: fields.senderNumber ?? null,
    keyMode: fields.keyMode ?? 'live',
    content: fields.content,
    parts: [],
    status: fields.status ?? 'sent',
    providerMessageId: null,
    ...FRESH_MESSAGE_FIELDS,
    createdAt: fields.at,
    updatedAt: fields.at,
    ticketId: ticket.id,
    direction: 'outbound',
    type: fields.type,
    author: fields.author,
    ...(fields.activity !== undefined ? { activity: fields.activity } : {}),
  };
}
