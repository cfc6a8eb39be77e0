import type { MessageRecord } from '../../messages/index.js';
import type { InMemoryStore } from '../../shared/testing/in-memory-store.js';
import type { Ticket } from '../ticket.js';
import type { RatedTicket, RatingReportQuery, RatingReportRepositories, RatingReportRepository, RatingTotals } from '../ticket-ratings.js';
import type { TicketSend, TicketSendRepositories, TicketSendRepository } from '../ticket-send.js';
import type { TicketTimelineRepositories, TicketTimelineRepository, TimelineQuery } from '../ticket-timeline.js';

// Tables are looked up on every call: a rolled-back transaction replaces the store's maps.
const sends = (store: InMemoryStore) => store.table('ticketSends', () => new Map<string, TicketSend>());
const messages = (store: InMemoryStore) => store.table('messages', () => new Map<string, MessageRecord>());
const tickets = (store: InMemoryStore) => store.table('tickets', () => new Map<string, Omit<Ticket, 'tagIds'>>());

export class InMemoryTicketSendRepository implements TicketSendRepository {
  constructor(private readonly store: InMemoryStore) {}
  async insert(send: TicketSend) {
    sends(this.store).set(send.id, structuredClone(send));
  }
  async lockById(id: string) {
    const found = sends(this.store).get(id);
    return found ? structuredClone(found) : null;
  }
  async save(send: TicketSend) {
    sends(this.store).set(send.id, structuredClone(send));
  }
  async listByTicket(companyId: string, ticketId: string) {
    return [...sends(this.store).values()]
      .filter((s) => s.companyId === companyId && s.ticketId === ticketId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map((s) => structuredClone(s));
  }
  async listStale(before: Date, limit: number) {
    return [...sends(this.store).values()]
      .filter((s) => (s.status === 'queued' || s.status === 'sending') && s.updatedAt.getTime() < before.getTime())
      .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime())
      .slice(0, limit)
      .map((s) => s.id);
  }
}

const compare = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class InMemoryTicketTimelineRepository implements TicketTimelineRepository {
  constructor(private readonly store: InMemoryStore) {}
  async list(query: TimelineQuery) {
    const sign = query.order === 'asc' ? 1 : -1;
    const rows = [...messages(this.store).values()]
      .filter((m) => m.companyId === query.companyId)
      .filter((m) => (query.ticketId ? m.ticketId === query.ticketId : m.conversationId === query.conversationId))
      .filter((m) => !query.after || sign * compare(m, { createdAt: query.after.at, id: query.after.id }) > 0)
      .sort((a, b) => sign * compare(a, b));
    return { items: rows.slice(0, query.limit).map((m) => structuredClone(m)), hasMore: rows.length > query.limit };
  }
}

export class InMemoryRatingReportRepository implements RatingReportRepository {
  constructor(private readonly store: InMemoryStore) {}
  async totals(query: RatingReportQuery, recentLimit: number): Promise<RatingTotals> {
    const within = (d: Date | null) => d !== null && d.getTime() >= query.from.getTime() && d.getTime() < query.to.getTime();
    const rows = [...tickets(this.store).values()].filter(
      (t) =>
        t.companyId === query.companyId &&
        within(t.rating.requestedAt ?? t.rating.ratedAt) &&
        (!query.setorId || t.setorId === query.setorId) &&
        (!query.teamId || t.rating.teamId === query.teamId) &&
        (!query.agentId || t.rating.agentId === query.agentId),
    );
    const requested = rows.filter((t) => t.rating.requestedAt !== null).length;
    const rated = rows.filter((t) => t.rating.status === 'rated' && t.rating.score !== null);
    const distribution: [number, number, number, number, number] = [0, 0, 0, 0, 0];
    const byAgent = new Map<string, [number, number, number, number, number]>();
    for (const t of rated) {
      const i = t.rating.score! - 1;
      distribution[i] = distribution[i]! + 1;
      if (t.rating.agentId) {
        const d = byAgent.get(t.rating.agentId) ?? [0, 0, 0, 0, 0];
        d[i] = d[i]! + 1;
        byAgent.set(t.rating.agentId, d);
      }
    }
    const recent: RatedTicket[] = rated
      .sort((a, b) => b.rating.ratedAt!.getTime() - a.rating.ratedAt!.getTime() || (a.id < b.id ? 1 : -1))
      .slice(0, recentLimit)
      .map((t) => ({
        ticketId: t.id,
        number: t.number,
        setorId: t.setorId,
        contactId: t.contactId,
        agentId: t.rating.agentId,
        teamId: t.rating.teamId,
        score: t.rating.score!,
        comment: t.rating.comment,
        ratedAt: t.rating.ratedAt!,
        source: t.rating.source,
      }));
    return { requested, distribution, byAgent: [...byAgent].map(([agentId, d]) => ({ agentId, distribution: d })), recent };
  }
}

/** The fakes of the reply, closing and rating repositories over one store. */
export function inMemoryTicketReplyRepositories(store: InMemoryStore): TicketSendRepositories & TicketTimelineRepositories & RatingReportRepositories {
  return {
    ticketSends: new InMemoryTicketSendRepository(store),
    ticketTimeline: new InMemoryTicketTimelineRepository(store),
    ratingReports: new InMemoryRatingReportRepository(store),
  };
}
