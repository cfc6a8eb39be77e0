import { assistantActive, importProgress, type Contact, type ContactDetail, type ContactFieldDefinition, type ContactImport, type ContactListItem, type Tag, type TagRule } from '@carteiro/core';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/** A contact as lists show it (the specification's snake_case and Portuguese fields). */
export function contactView(c: ContactListItem | (Contact & { tagIds?: string[]; lastInboundAt?: Date | null }), now: Date) {
  return {
    id: c.id,
    phone: c.phone,
    name: c.name,
    email: c.email,
    custom_fields: c.customFields,
    tag_ids: c.tagIds ?? [],
    ia_ativa: assistantActive(c, now),
    ia_paused_until: c.iaPausedUntil && c.iaPausedUntil > now ? c.iaPausedUntil.toISOString() : null,
    last_inbound_at: iso(c.lastInboundAt ?? null),
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}

export function tagView(t: Tag) {
  return { id: t.id, name: t.name, description: t.description ?? null, color: t.color ?? null, created_at: iso(t.createdAt), updated_at: iso(t.updatedAt ?? t.createdAt) };
}

/** What other areas add to a contact's 360 view, already in their views. */
export interface ContactRelated {
  upcomingAppointments?: readonly unknown[];
  activeTickets?: readonly unknown[];
  recentTickets?: readonly unknown[];
}

/** The 360 view: the list fields plus tags, tickets, the next appointments, affinities and stats. */
export function contactDetailView(d: ContactDetail, now: Date, related: ContactRelated = {}) {
  return {
    ...contactView(d.contact, now),
    tags: d.tags.map(tagView),
    active_tickets: related.activeTickets ?? [],
    recent_tickets: related.recentTickets ?? [],
    upcoming_appointments: related.upcomingAppointments ?? [],
    affinities: d.affinities.map((a) => ({ setor_id: a.setorId, source: a.source, created_at: iso(a.createdAt) })),
    stats: {
      conversations: d.stats.conversations,
      messages_sent: d.stats.messagesSent,
      last_inbound_at: iso(d.stats.lastInboundAt),
      last_outbound_at: iso(d.stats.lastOutboundAt),
    },
  };
}

export function fieldView(f: ContactFieldDefinition) {
  return { id: f.id, key: f.key, label: f.label, type: f.type, options: f.options, created_at: iso(f.createdAt), updated_at: iso(f.updatedAt) };
}

export function ruleView(r: TagRule) {
  return {
    id: r.id,
    tag_id: r.tagId,
    match_type: r.matchType,
    match_value: r.matchValue,
    case_sensitive: r.caseSensitive,
    scope: r.scope,
    setor_ids: r.setorIds,
    enabled: r.enabled,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

export function importView(j: ContactImport) {
  return {
    job_id: j.id,
    status: j.status,
    mode: j.mode,
    total: j.total,
    processed: j.processed,
    created: j.created,
    updated: j.updated,
    skipped: j.skipped,
    failed: j.failed,
    progress: importProgress(j),
    errors: j.errors,
    error: j.error,
    started_at: iso(j.startedAt),
    finished_at: iso(j.finishedAt),
    created_at: iso(j.createdAt),
  };
}
