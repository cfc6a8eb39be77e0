import { conversationPhoneKey } from '../../channel/index.js';
import type { Contact } from '../../contacts/index.js';
import type { Conversation } from '../../messages/index.js';
import type { Setor } from '../../setores/index.js';
import { phoneMatchKey } from '../../phone/index.js';
import { isUuid } from '../../shared/ids.js';
import type { InMemoryStore } from '../../shared/testing/in-memory-store.js';
import { priorityRank, type Ticket } from '../ticket.js';
import { TicketActiveError } from '../ticket-errors.js';
import type {
  QueueFilter,
  QueueKeyset,
  QueuePage,
  TicketFilter,
  TicketKeyset,
  TicketLink,
  TicketListPage,
  TicketListRequest,
  TicketRepositories,
  TicketRepository,
  TicketViewParts,
} from '../ticket-repository.js';

type StoredTicket = Omit<Ticket, 'tagIds'>;
interface TagLink {
  ticketId: string;
  tagId: string;
  companyId: string;
  createdAt: Date;
}
interface StoredLink extends TicketLink {
  ticketId: string;
  companyId: string;
}

// Tables are looked up on every call: a rolled-back transaction replaces the store's maps.
const tickets = (store: InMemoryStore) => store.table('tickets', () => new Map<string, StoredTicket>());
const ticketTags = (store: InMemoryStore) => store.table('ticketTags', () => [] as TagLink[]);
const ticketLinks = (store: InMemoryStore) => store.table('ticketLinks', () => [] as StoredLink[]);
const counters = (store: InMemoryStore) => store.table('ticketCounters', () => new Map<string, number>());
const contacts = (store: InMemoryStore) => store.table('contacts', () => new Map<string, Contact>());
const conversations = (store: InMemoryStore) => store.table('conversations', () => new Map<string, Conversation>());
const setores = (store: InMemoryStore) => store.table('setores', () => new Map<string, Setor>());
/** The channel area's fake keeps the latest inbound per `${setorId}|${conversationPhoneKey(phone)}`. */
const conversationWindows = (store: InMemoryStore) => store.table('conversationWindows', () => new Map<string, Date>());

const time = (d: Date | null) => (d === null ? Number.POSITIVE_INFINITY : d.getTime());

/** Whether `q` of the ticket list is read as digits (number or phone) rather than a name. */
export function isDigitsQuery(q: string): boolean {
  return /^[\d\s()+.\-]+$/.test(q) && /\d/.test(q);
}

export class InMemoryTicketRepository implements TicketRepository {
  constructor(private readonly store: InMemoryStore) {}

  private withTags(stored: StoredTicket): Ticket {
    const tagIds = ticketTags(this.store)
      .filter((l) => l.ticketId === stored.id)
      .map((l) => l.tagId)
      .sort();
    return { ...structuredClone(stored), tagIds };
  }

  private activeOf(setorId: string, contactId: string): StoredTicket | undefined {
    return [...tickets(this.store).values()].find((t) => t.setorId === setorId && t.contactId === contactId && t.status !== 'closed');
  }

  async insert(ticket: Ticket) {
    if (this.activeOf(ticket.setorId, ticket.contactId)) return false;
    const { tagIds: _ignored, ...stored } = structuredClone(ticket);
    tickets(this.store).set(ticket.id, stored);
    return true;
  }

  async findById(companyId: string, id: string) {
    const found = isUuid(id) ? tickets(this.store).get(id) : undefined;
    return found && found.companyId === companyId ? this.withTags(found) : null;
  }

  async lockById(companyId: string, id: string) {
    return this.findById(companyId, id);
  }

  async findActive(setorId: string, contactId: string) {
    const found = this.activeOf(setorId, contactId);
    return found ? this.withTags(found) : null;
  }

  async findActiveAll(pairs: readonly { setorId: string; contactId: string }[]) {
    const found: Ticket[] = [];
    for (const key of new Set(pairs.map((p) => `${p.setorId}|${p.contactId}`))) {
      const [setorId, contactId] = key.split('|') as [string, string];
      const ticket = await this.findActive(setorId, contactId);
      if (ticket) found.push(ticket);
    }
    return found;
  }

  async saveAll(saves: readonly { ticket: Ticket; expectedVersion: number }[]) {
    const saved: string[] = [];
    for (const { ticket, expectedVersion } of saves) if (await this.save(ticket, expectedVersion)) saved.push(ticket.id);
    return saved;
  }

  async findReopenable(setorId: string, contactId: string, since: Date) {
    const found = [...tickets(this.store).values()]
      .filter((t) => t.setorId === setorId && t.contactId === contactId && t.status === 'closed' && t.closedAt && t.closedAt.getTime() >= since.getTime())
      .sort((a, b) => b.closedAt!.getTime() - a.closedAt!.getTime())[0];
    return found ? this.withTags(found) : null;
  }

  async save(ticket: Ticket, expectedVersion: number) {
    const stored = tickets(this.store).get(ticket.id);
    if (!stored || stored.version !== expectedVersion) return false;
    if (ticket.status !== 'closed') {
      const other = this.activeOf(ticket.setorId, ticket.contactId);
      if (other && other.id !== ticket.id) throw new TicketActiveError(other.id);
    }
    const { tagIds: _ignored, ...next } = structuredClone(ticket);
    tickets(this.store).set(ticket.id, { ...next, number: stored.number, createdAt: stored.createdAt });
    return true;
  }

  async nextNumber(companyId: string) {
    const next = (counters(this.store).get(companyId) ?? 0) + 1;
    counters(this.store).set(companyId, next);
    return next;
  }

  async insertNumbered(ticket: Ticket) {
    const number = await this.nextNumber(ticket.companyId);
    return (await this.insert({ ...ticket, number })) ? number : null;
  }

  async insertNumberedAll(companyId: string, tickets: readonly Ticket[]) {
    const numbers: number[] = [];
    for (const ticket of tickets) {
      const number = await this.nextNumber(companyId);
      if (!(await this.insert({ ...ticket, number }))) throw new TicketActiveError(null);
      numbers.push(number);
    }
    return numbers;
  }

  private matches(t: StoredTicket, companyId: string, filter: TicketFilter): boolean {
    if (t.companyId !== companyId || !filter.statuses.includes(t.status)) return false;
    if (filter.setorId && t.setorId !== filter.setorId) return false;
    if (filter.contactId && t.contactId !== filter.contactId) return false;
    if (filter.agentId !== undefined && t.agentId !== filter.agentId) return false;
    if (filter.teamId && t.teamId !== filter.teamId) return false;
    if (filter.priorities && (t.priority === null || !filter.priorities.includes(t.priority))) return false;
    if (filter.tagId && !ticketTags(this.store).some((l) => l.ticketId === t.id && l.tagId === filter.tagId)) return false;
    if (filter.updatedSince && t.updatedAt.getTime() < filter.updatedSince.getTime()) return false;
    if (filter.q) {
      const contact = contacts(this.store).get(t.contactId);
      if (isDigitsQuery(filter.q)) {
        const digits = filter.q.replace(/\D/g, '');
        const byNumber = String(t.number) === digits.replace(/^0+(?=\d)/, '');
        const ends = (phone: string) => phone.replace(/\D/g, '').endsWith(digits);
        if (!byNumber && !(contact && (ends(contact.phone) || ends(phoneMatchKey(contact.phone))))) return false;
      } else if (!(contact?.name ?? '').toLowerCase().includes(filter.q.toLowerCase())) return false;
    }
    return true;
  }

  async list(companyId: string, filter: TicketFilter, request: TicketListRequest) {
    const asc = request.sort === 'updated_asc';
    const key = (t: StoredTicket) => (asc ? t.updatedAt : t.lastActivityAt).getTime();
    const after = (t: StoredTicket, k: TicketKeyset) =>
      asc ? key(t) > k.at.getTime() || (key(t) === k.at.getTime() && t.id > k.id) : key(t) < k.at.getTime() || (key(t) === k.at.getTime() && t.id < k.id);
    const rows = [...tickets(this.store).values()]
      .filter((t) => this.matches(t, companyId, filter))
      .filter((t) => !request.after || after(t, request.after))
      .filter((t) => !asc || !request.horizon || t.updatedAt.getTime() <= request.horizon.getTime())
      .sort((a, b) => (asc ? key(a) - key(b) || (a.id < b.id ? -1 : 1) : key(b) - key(a) || (a.id < b.id ? 1 : -1)));
    const items = rows.slice(0, request.limit).map((t) => this.withTags(t));
    const page: TicketListPage = { items, hasMore: rows.length > request.limit };
    if (request.withViewParts) page.parts = await this.viewParts(companyId, items);
    return page;
  }

  async viewParts(companyId: string, list: readonly Ticket[]) {
    const parts = new Map<string, TicketViewParts>();
    for (const ticket of list) {
      const contact = contacts(this.store).get(ticket.contactId);
      const setor = setores(this.store).get(ticket.setorId);
      const mine = contact && contact.companyId === companyId ? contact : null;
      const official = setor?.companyId === companyId && setor.channelType === 'official';
      const last = official && mine ? conversationWindows(this.store).get(`${ticket.setorId}|${conversationPhoneKey(mine.phone)}`) : undefined;
      parts.set(ticket.id, {
        contact: mine ? { id: mine.id, name: mine.name, phone: mine.phone, iaAtiva: mine.iaAtiva } : null,
        official,
        lastInboundAt: last ? new Date(last) : null,
      });
    }
    return parts;
  }

  async queue(companyId: string, filter: QueueFilter, after: QueueKeyset | null, limit: number): Promise<QueuePage> {
    const order = (a: { rank: number; waitingSince: Date | null; id: string }, b: { rank: number; waitingSince: Date | null; id: string }) =>
      a.rank - b.rank || time(a.waitingSince) - time(b.waitingSince) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const keyOf = (t: StoredTicket) => ({ rank: priorityRank(t.priority), waitingSince: t.waitingSince, id: t.id });
    const all = [...tickets(this.store).values()]
      .filter((t) => t.companyId === companyId && t.status === 'open' && t.agentId === null)
      .filter((t) => (!filter.setorId || t.setorId === filter.setorId) && (!filter.teamId || t.teamId === filter.teamId))
      .filter((t) => !filter.priorities || (t.priority !== null && filter.priorities.includes(t.priority)))
      .sort((a, b) => order(keyOf(a), keyOf(b)));
    const rest = after ? all.filter((t) => order(keyOf(t), after) > 0) : all;
    const waits = all.map((t) => t.waitingSince).filter((d): d is Date => d !== null);
    return {
      items: rest.slice(0, limit).map((t) => this.withTags(t)),
      hasMore: rest.length > limit,
      total: all.length,
      oldestWaitingSince: waits.length > 0 ? new Date(Math.min(...waits.map((d) => d.getTime()))) : null,
      before: all.length - rest.length,
    };
  }

  async openCountsByAgent(agentIds: readonly string[]) {
    const counts: Record<string, number> = Object.fromEntries(agentIds.map((id) => [id, 0]));
    for (const t of tickets(this.store).values()) if (t.agentId && t.status !== 'closed' && t.agentId in counts) counts[t.agentId]! += 1;
    return counts;
  }

  async listActiveOfAgent(companyId: string, agentId: string) {
    return [...tickets(this.store).values()]
      .filter((t) => t.companyId === companyId && t.agentId === agentId && t.status !== 'closed')
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((t) => this.withTags(t));
  }

  async dueSnoozed(at: Date, limit: number) {
    return [...tickets(this.store).values()]
      .filter((t) => t.status === 'snoozed' && t.snoozedUntil !== null && t.snoozedUntil.getTime() <= at.getTime())
      .sort((a, b) => a.snoozedUntil!.getTime() - b.snoozedUntil!.getTime())
      .slice(0, limit)
      .map((t) => ({ companyId: t.companyId, id: t.id }));
  }

  async addTags(companyId: string, ticketId: string, tagIds: readonly string[], at: Date) {
    const added: string[] = [];
    for (const tagId of new Set(tagIds)) {
      if (ticketTags(this.store).some((l) => l.ticketId === ticketId && l.tagId === tagId)) continue;
      ticketTags(this.store).push({ ticketId, tagId, companyId, createdAt: at });
      added.push(tagId);
    }
    return added;
  }

  async linkTags(companyId: string, links: readonly { ticketId: string; tagId: string }[], at: Date) {
    for (const link of links) await this.addTags(companyId, link.ticketId, [link.tagId], at);
  }

  async removeTags(ticketId: string, tagIds: readonly string[]) {
    const wanted = new Set(tagIds);
    const removed = ticketTags(this.store)
      .filter((l) => l.ticketId === ticketId && wanted.has(l.tagId))
      .map((l) => l.tagId);
    const kept = ticketTags(this.store).filter((l) => !(l.ticketId === ticketId && wanted.has(l.tagId)));
    ticketTags(this.store).splice(0, Infinity, ...kept);
    return removed;
  }

  async link(companyId: string, ticketId: string, link: TicketLink) {
    if (ticketLinks(this.store).some((l) => l.ticketId === ticketId && l.type === link.type && l.targetId === link.targetId)) return false;
    ticketLinks(this.store).push({ ...structuredClone(link), ticketId, companyId });
    return true;
  }

  async unlink(ticketId: string, type: TicketLink['type'], targetId: string) {
    const index = ticketLinks(this.store).findIndex((l) => l.ticketId === ticketId && l.type === type && l.targetId === targetId);
    if (index < 0) return false;
    ticketLinks(this.store).splice(index, 1);
    return true;
  }

  async links(ticketId: string) {
    return ticketLinks(this.store)
      .filter((l) => l.ticketId === ticketId)
      .sort((a, b) => a.linkedAt.getTime() - b.linkedAt.getTime() || (a.targetId < b.targetId ? -1 : 1))
      .map(({ type, targetId, linkedAt }) => ({ type, targetId, linkedAt: new Date(linkedAt) }));
  }

  async latestConversationOf(companyId: string, contactId: string) {
    const activity = (c: Conversation) => Math.max(c.lastInboundAt?.getTime() ?? 0, c.lastOutboundAt?.getTime() ?? 0, c.createdAt.getTime());
    const latest = [...conversations(this.store).values()]
      .filter((c) => c.companyId === companyId && c.contactId === contactId)
      .sort((a, b) => activity(b) - activity(a) || (a.id < b.id ? 1 : -1))[0];
    return latest ? { id: latest.id, setorId: latest.setorId } : null;
  }

  async lockContactThread() {
    // The in-memory unit of work runs one transaction at a time: nothing to serialise.
  }

  async lockContactThreads() {
    // As lockContactThread.
  }
}

/** The tickets area's fakes over one store. */
export function inMemoryTicketRepositories(store: InMemoryStore): TicketRepositories {
  return { tickets: new InMemoryTicketRepository(store) };
}
