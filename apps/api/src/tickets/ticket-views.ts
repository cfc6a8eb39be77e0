import type { QueueEntry, TicketDetailView, TicketView } from '@carteiro/core';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const reais = (cents: number | null) => (cents === null ? null : cents / 100);

/**
 * A ticket as lists show it (conversations.md §1). One object literal, no spread: an object spread and then extended
 * by twenty more keys falls back to a slow dictionary representation (about 50 µs a ticket to build and serialise).
 */
export function ticketView({ ticket, contact, replyWindow }: TicketView) {
  return {
    id: ticket.id,
    number: ticket.number,
    status: ticket.status,
    priority: ticket.priority,
    setor_id: ticket.setorId,
    client_id: ticket.contactId,
    conversation_id: ticket.conversationId,
    contact: contact ? { id: contact.id, name: contact.name, phone: contact.phone, ia_ativa: contact.iaAtiva } : null,
    agent_id: ticket.agentId,
    team_id: ticket.teamId,
    snoozed_until: iso(ticket.snoozedUntil),
    waiting_since: iso(ticket.waitingSince),
    last_message: ticket.lastMessage
      ? { id: ticket.lastMessage.id, direction: ticket.lastMessage.direction, type: ticket.lastMessage.type, preview: ticket.lastMessage.preview, at: ticket.lastMessage.at.toISOString() }
      : null,
    last_activity_at: ticket.lastActivityAt.toISOString(),
    tag_ids: ticket.tagIds,
    source: ticket.source,
    reply_window: { open: replyWindow.open, open_until: iso(replyWindow.openUntil) },
    first_response_at: iso(ticket.firstResponseAt),
    closed_at: iso(ticket.closedAt),
    close_reason: ticket.closeReason,
    rating_status: ticket.rating.status,
    version: ticket.version,
    created_at: ticket.createdAt.toISOString(),
    updated_at: ticket.updatedAt.toISOString(),
  };
}

/** GET /v1/tickets/:id: adds tags, links, handoff and rating. */
export function ticketDetailView(detail: TicketDetailView) {
  const { ticket } = detail;
  return Object.assign(ticketView(detail), {
    tags: detail.tags.map((t) => ({ id: t.id, name: t.name, color: t.color ?? null })),
    links: {
      crm_opportunities: detail.opportunities.map(({ link, opportunity }) => ({
        id: opportunity.id,
        title: opportunity.title,
        stage_id: opportunity.stageId,
        value: reais(opportunity.value ?? opportunity.productsTotal),
        linked_at: link.linkedAt.toISOString(),
      })),
    },
    handoff: ticket.handoff ? { summary: ticket.handoff.summary, at: ticket.handoff.at.toISOString() } : null,
    rating: { score: ticket.rating.score, comment: ticket.rating.comment, rated_at: iso(ticket.rating.ratedAt) },
  });
}

/** One entry of GET /v1/queue. */
export function queueEntryView(entry: QueueEntry) {
  const { ticket, contact } = entry;
  return {
    ticket_id: ticket.id,
    number: ticket.number,
    client_id: ticket.contactId,
    contact: contact ? { id: contact.id, name: contact.name, phone: contact.phone, ia_ativa: contact.iaAtiva } : null,
    setor_id: ticket.setorId,
    team_id: ticket.teamId,
    priority: ticket.priority,
    waiting_since: iso(ticket.waitingSince),
    wait_seconds: entry.waitSeconds,
    position: entry.position,
    handoff_summary: ticket.handoff?.summary ?? null,
  };
}
