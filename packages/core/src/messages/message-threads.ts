import type { Repositories } from '../shared/unit-of-work.js';
import type { MessageRecord } from './message.js';

/** Who wrote a message of a thread, as the timeline shows it (`author { type, id }`). */
export interface ThreadAuthor {
  type: 'contact' | 'agent' | 'api' | 'system' | 'assistant';
  id: string | null;
}

/** A send that belongs to a given ticket (a reply of POST /v1/tickets/:id/messages). */
export interface ThreadSend {
  ticketId: string;
  author: ThreadAuthor;
}

/**
 * The conversation threads (tickets) single sends join. The messages area declares it and the
 * tickets area implements it (`TicketThreads`), so that sending does not depend on tickets.
 * Both methods run inside the send's transactions; `repos` holds every area at run time.
 */
export interface MessageThreads {
  /**
   * In the transaction that charges and stores the send: the ticket the message joins. With
   * `ticketId` (a reply), that ticket, locked, refused when closed (409 TICKET_CLOSED); without, the
   * box and contact's active ticket, or null.
   */
  join(repos: Repositories, input: { companyId: string; setorId: string; contactId: string; ticketId: string | null; at: Date }): Promise<string | null>;
  /** In the transaction that records a sent message of a ticket (the ticket's reply bookkeeping). */
  sent(repos: Repositories, message: MessageRecord, at: Date): Promise<void>;
}
export const MessageThreads = Symbol.for('carteiro.MessageThreads');
