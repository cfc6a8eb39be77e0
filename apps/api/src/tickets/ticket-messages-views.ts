import type { MessageContent, MessageRecord, RatingReport, Ticket } from '@carteiro/core';

/** What a timeline item carries of its content: its kind and text, and its media, template or options when it has them. */
export function contentView(content: MessageContent): Record<string, unknown> {
  switch (content.type) {
    case 'text':
      return { type: 'text', text: content.text };
    case 'media':
      return {
        type: 'media',
        text: content.text ?? null,
        media_url: content.media.url,
        media_type: content.media.mediaType,
        ...(content.media.filename ? { media_filename: content.media.filename } : {}),
      };
    case 'template':
      return { type: 'template', text: null, template_name: content.template.name, template_language: content.template.language };
    case 'interactive':
      return {
        type: 'interactive',
        text: content.interactive.bodyText,
        options: content.interactive.type === 'button' ? (content.interactive.buttons ?? []).map((b) => ({ id: b.id, title: b.title })) : (content.interactive.sections ?? []).flatMap((s) => s.rows.map((r) => ({ id: r.id, title: r.title }))),
      };
    case 'poll':
      return { type: 'poll', text: content.poll.name, options: content.poll.options.map((o) => ({ id: o, title: o })) };
    case 'event':
      return { type: 'event', text: content.event.name };
  }
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** One item of GET /v1/tickets/:id/messages (and the answer of POST /v1/tickets/:id/messages). */
export function timelineItemView(message: MessageRecord): Record<string, unknown> {
  const activity = message.activity ?? null;
  return {
    id: message.id,
    ticket_id: message.ticketId ?? null,
    conversation_id: message.conversationId,
    type: message.type ?? 'message',
    direction: message.direction ?? 'outbound',
    author: message.author ? { type: message.author.type, id: message.author.id } : null,
    content: contentView(message.content),
    status: message.status,
    error_code: message.errorCode,
    sent_at: iso(message.sentAt),
    delivered_at: iso(message.deliveredAt),
    read_at: iso(message.readAt),
    activity: activity ? { kind: activity.kind, from: activity.from ?? null, to: activity.to ?? null } : null,
    created_at: message.createdAt.toISOString(),
  };
}

/** The answer of POST /v1/tickets/:id/rating. */
export function ticketRatingView(ticket: Ticket, changed: boolean): Record<string, unknown> {
  return {
    ticket_id: ticket.id,
    rating_status: ticket.rating.status,
    rating: { score: ticket.rating.score, comment: ticket.rating.comment, rated_at: iso(ticket.rating.ratedAt), source: ticket.rating.source },
    agent_id: ticket.rating.agentId,
    team_id: ticket.rating.teamId,
    version: ticket.version,
    changed,
  };
}

/** GET /v1/ratings. */
export function ratingReportView(report: RatingReport): Record<string, unknown> {
  return {
    from: report.from.toISOString(),
    to: report.to.toISOString(),
    summary: {
      requested: report.summary.requested,
      responded: report.summary.responded,
      response_rate: report.summary.responseRate,
      average: report.summary.average,
      csat_percent: report.summary.csatPercent,
      distribution: report.summary.distribution,
    },
    ranking: report.ranking.map((r) => ({ agent_id: r.agentId, name: r.name, responded: r.responded, average: r.average, csat_percent: r.csatPercent })),
    recent: report.recent.map((r) => ({
      ticket_id: r.ticketId,
      number: r.number,
      setor_id: r.setorId,
      client_id: r.contactId,
      agent_id: r.agentId,
      team_id: r.teamId,
      score: r.score,
      comment: r.comment,
      rated_at: r.ratedAt.toISOString(),
      source: r.source,
    })),
  };
}
