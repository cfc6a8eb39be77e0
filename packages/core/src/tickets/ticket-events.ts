import type { DomainEvent, EventActor } from '../shared/domain-event.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Ticket, TicketEvent } from './ticket.js';

/**
 * The webhook-facing facts of a ticket change (conversations.md §8): `conversation.created` for a
 * new ticket (no `status_changed` for none → open), `conversation.status_changed` for every move,
 * `conversation.assigned` for every assignment change. Other changes publish nothing here
 * (ratings: `ratedEvent`).
 */
export function ticketOutbox(ticket: Ticket, events: readonly TicketEvent[], ids: IdGenerator, actor: EventActor): DomainEvent[] {
  const facts: DomainEvent[] = [];
  const fact = (event: DomainEvent['event'], at: Date, data: Record<string, unknown>): DomainEvent => ({
    id: ids.newId(),
    event,
    companyId: ticket.companyId,
    setorId: ticket.setorId,
    occurredAt: at,
    data,
    actor,
  });
  for (const event of events) {
    switch (event.type) {
      case 'opened':
        facts.push(
          fact('conversation.created', event.at, {
            conversationId: ticket.conversationId,
            contactId: ticket.contactId,
            setorId: ticket.setorId,
            ticketId: ticket.id,
            number: ticket.number,
            status: event.ticket.status,
            source: ticket.source,
          }),
        );
        break;
      case 'statusChanged':
        facts.push(
          fact('conversation.status_changed', event.at, {
            conversationId: ticket.conversationId,
            ticketId: ticket.id,
            from: event.from,
            to: event.to,
            snoozedUntil: event.snoozedUntil?.toISOString() ?? null,
            reason: event.reason,
          }),
        );
        break;
      case 'assigned':
        facts.push(
          fact('conversation.assigned', event.at, {
            conversationId: ticket.conversationId,
            ticketId: ticket.id,
            agentId: event.agentId,
            teamId: event.teamId,
            previousAgentId: event.previousAgentId,
            previousTeamId: event.previousTeamId,
            by: event.by,
            summary: event.by === 'handoff' ? (ticket.handoff?.summary ?? null) : null,
            handoff: event.by === 'handoff',
          }),
        );
        break;
      default:
        break;
    }
  }
  return facts;
}
