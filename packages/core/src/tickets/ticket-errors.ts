import { DomainError } from '../shared/errors.js';

/** Another ticket of the same setor and contact is active (not closed): 409 TICKET_ACTIVE `{ ticket_id }`. */
export class TicketActiveError extends DomainError {
  constructor(readonly ticketId: string | null) {
    super('TICKET_ACTIVE', 'The contact already has an active ticket on this setor', ticketId ? { ticket_id: ticketId } : undefined);
    this.name = 'TicketActiveError';
  }
}

/** The ticket is closed and the write needs an active one: 409 TICKET_CLOSED. */
export class TicketClosedError extends DomainError {
  constructor() {
    super('TICKET_CLOSED', 'The ticket is closed', { status: 'closed' });
    this.name = 'TicketClosedError';
  }
}

/** A `claim` found the ticket already held by an agent: 409 ALREADY_ASSIGNED `{ agent_id }`. */
export class AlreadyAssignedError extends DomainError {
  constructor(agentId: string) {
    super('ALREADY_ASSIGNED', 'The ticket is already assigned to an agent', { agent_id: agentId });
    this.name = 'AlreadyAssignedError';
  }
}

/** POST /v1/tickets for a contact with no conversation on the setor (or none at all): 422 NO_CONVERSATION. */
export class NoConversationError extends DomainError {
  constructor() {
    super('NO_CONVERSATION', 'The contact has no conversation to open a ticket in; send a first-contact message first');
    this.name = 'NoConversationError';
  }
}
