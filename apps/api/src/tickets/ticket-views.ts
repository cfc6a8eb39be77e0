import type { QueueEntry, TicketDetailView, TicketView } from '@carteiro/core';

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * `date.toISOString()`, built from the UTC fields: a page formats about 130 instants, and V8's own is about twice as
 * slow to build and then serialise (its result is flattened again by JSON.stringify). Years outside 1000-9999 and
 * invalid dates go to `toISOString` itself.
 */
export function isoString(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${three(date.getUTCMilliseconds())}Z`;
}

const iso = (d: Date | null) => (d ? isoString(d) : null);
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
      ? { id: ticket.lastMessage.id, direction: ticket.lastMessage.direction, type: ticket.lastMessage.type, preview: ticket.lastMessage.preview, at: isoString(ticket.lastMessage.at) }
      : null,
    last_activity_at: isoString(ticket.lastActivityAt),
    tag_ids: ticket.tagIds,
    source: ticket.source,
    reply_window: { open: replyWindow.open, open_until: iso(replyWindow.openUntil) },
    first_response_at: iso(ticket.firstResponseAt),
    closed_at: iso(ticket.closedAt),
    close_reason: ticket.closeReason,
    rating_status: ticket.rating.status,
    version: ticket.version,
    created_at: isoString(ticket.createdAt),
    updated_at: isoString(ticket.updatedAt),
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
