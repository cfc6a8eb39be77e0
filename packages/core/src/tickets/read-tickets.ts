import { requestFingerprint } from '../campaigns/index.js';
import { CONVERSATION_WINDOW_MS, isConversationWindowOpen } from '../channel/index.js';
import type { CrmRepositories, Opportunity } from '../crm/index.js';
import type { Tag, TagRepositories } from '../tags/index.js';
import type { Clock } from '../shared/clock.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { isUuid } from '../shared/ids.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { ActiveTicketStatuses, priorityRank, type Ticket } from './ticket.js';
import type { QueueFilter, QueueKeyset, TicketContact, TicketFilter, TicketKeyset, TicketLink, TicketRepositories, TicketSort, TicketViewParts } from './ticket-repository.js';

type Areas = TicketRepositories & TagRepositories & CrmRepositories;

/** The most a cursor page holds (more: 400). */
export const MAX_TICKET_PAGE = 100;
/** `updated_asc` withholds rows changed this recently: transactions still running may commit older `updated_at`s. */
export const SYNC_HORIZON_MS = 5_000;

/** Whether a reply can be sent now: QR boxes always; official boxes within 24 hours of the contact's last message. */
export interface ReplyWindow {
  open: boolean;
  /** Official boxes: when the window closes (null when closed or never opened); QR boxes: null. */
  openUntil: Date | null;
}

/** A ticket as lists show it: with its contact and reply window. */
export interface TicketView {
  ticket: Ticket;
  contact: TicketContact | null;
  replyWindow: ReplyWindow;
}

/** GET /v1/tickets/:id: the list's view plus tags, links and the linked opportunities. */
export interface TicketDetailView extends TicketView {
  tags: Tag[];
  opportunities: { link: TicketLink; opportunity: Opportunity }[];
}

/** One cursor page. */
export interface CursorPage<T> {
  items: T[];
  limit: number;
  nextCursor: string | null;
  hasMore: boolean;
}

/** A queued ticket with its place and wait. */
export interface QueueEntry extends TicketView {
  position: number;
  waitSeconds: number;
}

/** GET /v1/queue's page and totals. */
export interface QueueView extends CursorPage<QueueEntry> {
  total: number;
  oldestWaitSeconds: number;
}

interface CursorBody<K> {
  /** What the cursor was made for: sort and filters (another list refuses it). */
  f: string;
  k: K | null;
}

function encodeCursor<K>(body: CursorBody<K>): string {
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

function decodeCursor<K>(cursor: string, binding: string): K | null {
  let body: CursorBody<K> | null = null;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorBody<K>;
  } catch {
    body = null;
  }
  if (!body || typeof body !== 'object' || typeof body.f !== 'string') throw new ValidationError('cursor is malformed', { field: 'cursor' });
  if (body.f !== binding) throw new ValidationError('cursor belongs to another list: repeat the filters and sort it was made with', { field: 'cursor' });
  return body.k ?? null;
}

const binding = (value: unknown) => requestFingerprint(value).slice(0, 16);

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TICKET_PAGE) throw new ValidationError(`limit must be 1-${MAX_TICKET_PAGE}`, { field: 'limit' });
}

/** QR setores (and a setor that is not the company's): replies can always be sent. */
const ALWAYS_OPEN: ReplyWindow = Object.freeze({ open: true, openUntil: null });

/** Closed tickets shown in a contact's 360 view. */
export const RECENT_CONTACT_TICKETS = 5;
/** A contact has at most one active ticket per box; this bounds the read. */
const MAX_CONTACT_ACTIVE_TICKETS = 100;

/** GET /v1/tickets, GET /v1/tickets/:id and GET /v1/queue. */
export class ReadTickets {
  constructor(
    private readonly repos: Repositories<Areas>,
    private readonly clock: Clock,
  ) {}

  /** Contacts and reply windows of tickets: the same one or two reads for any number of tickets (`TicketRepository.viewParts`). */
  private async views(companyId: string, tickets: readonly Ticket[], read?: Map<string, TicketViewParts>): Promise<TicketView[]> {
    if (tickets.length === 0) return [];
    const now = this.clock.now();
    const parts = read ?? (await this.repos.tickets.viewParts(companyId, tickets));
    return tickets.map((ticket) => {
      const part: TicketViewParts = parts.get(ticket.id) ?? { contact: null, official: false, lastInboundAt: null };
      let replyWindow: ReplyWindow = ALWAYS_OPEN;
      if (part.official) {
        // A missing contact has no window: closed.
        const last = part.contact ? part.lastInboundAt : null;
        const open = isConversationWindowOpen(last, now);
        replyWindow = { open, openUntil: open && last ? new Date(last.getTime() + CONVERSATION_WINDOW_MS) : null };
      }
      return { ticket, contact: part.contact, replyWindow };
    });
  }

  async list(companyId: string, filter: TicketFilter, sort: TicketSort, limit: number, cursor?: string): Promise<CursorPage<TicketView>> {
    checkLimit(limit);
    const bound = binding({ sort, filter });
    const after = cursor ? decodeCursor<[string, string]>(cursor, bound) : null;
    const keyset: TicketKeyset | null = after ? { at: new Date(after[0]), id: after[1] } : null;
    if (keyset && (Number.isNaN(keyset.at.getTime()) || !isUuid(keyset.id))) throw new ValidationError('cursor is malformed', { field: 'cursor' });
    const horizon = sort === 'updated_asc' ? new Date(this.clock.now().getTime() - SYNC_HORIZON_MS) : undefined;
    const page = await this.repos.tickets.list(companyId, filter, { sort, after: keyset, limit, horizon, withViewParts: true });
    const last = page.items.at(-1);
    const keyOf = (t: Ticket): [string, string] => [(sort === 'updated_asc' ? t.updatedAt : t.lastActivityAt).toISOString(), t.id];
    let nextCursor: string | null = null;
    if (sort === 'updated_asc') {
      // A sync reader always gets a cursor: it polls with it for what changes later.
      nextCursor = encodeCursor({ f: bound, k: last ? keyOf(last) : after });
    } else if (page.hasMore && last) {
      nextCursor = encodeCursor({ f: bound, k: keyOf(last) });
    }
    return { items: await this.views(companyId, page.items, page.parts), limit, nextCursor, hasMore: page.hasMore };
  }

  /**
   * The tickets of a contact for its 360 view (GET /v1/contacts/:id): every active one (one per box
   * at most) and the five closed most recently active, each newest first.
   */
  async ofContact(companyId: string, contactId: string): Promise<{ active: TicketView[]; recent: TicketView[] }> {
    const newest = { sort: 'last_activity_desc' as const, after: null };
    const [active, recent] = await Promise.all([
      this.repos.tickets.list(companyId, { statuses: ActiveTicketStatuses, contactId }, { ...newest, limit: MAX_CONTACT_ACTIVE_TICKETS }),
      this.repos.tickets.list(companyId, { statuses: ['closed'], contactId }, { ...newest, limit: RECENT_CONTACT_TICKETS }),
    ]);
    const views = await this.views(companyId, [...active.items, ...recent.items]);
    return { active: views.slice(0, active.items.length), recent: views.slice(active.items.length) };
  }

  async detail(companyId: string, id: string): Promise<TicketDetailView> {
    const ticket = await this.repos.tickets.findById(companyId, id);
    if (!ticket) throw new NotFoundError('Ticket');
    const [view] = await this.views(companyId, [ticket]);
    const tags = (await this.repos.tags.findManyByIds(companyId, ticket.tagIds)).sort((a, b) => a.name.localeCompare(b.name));
    // The linked opportunities in one read, in the links' order; a deleted one is left out.
    const links = (await this.repos.tickets.links(ticket.id)).filter((link) => link.type === 'crm_opportunity');
    const found = new Map((await this.repos.opportunities.findManyByIds(companyId, links.map((link) => link.targetId))).map((o) => [o.id, o]));
    const opportunities: TicketDetailView['opportunities'] = links.flatMap((link) => {
      const opportunity = found.get(link.targetId);
      return opportunity ? [{ link, opportunity }] : [];
    });
    return { ...view!, tags, opportunities };
  }

  async queue(companyId: string, filter: QueueFilter, limit: number, cursor?: string): Promise<QueueView> {
    checkLimit(limit);
    const bound = binding({ queue: filter });
    const after = cursor ? decodeCursor<[number, string | null, string]>(cursor, bound) : null;
    const keyset: QueueKeyset | null = after ? { rank: Number(after[0]), waitingSince: after[1] ? new Date(after[1]) : null, id: after[2] } : null;
    if (keyset && (!Number.isInteger(keyset.rank) || keyset.rank < 0 || keyset.rank > 4 || !isUuid(keyset.id) || (keyset.waitingSince && Number.isNaN(keyset.waitingSince.getTime())))) {
      throw new ValidationError('cursor is malformed', { field: 'cursor' });
    }
    const page = await this.repos.tickets.queue(companyId, filter, keyset, limit);
    const now = this.clock.now();
    const waited = (since: Date | null) => (since ? Math.max(0, Math.floor((now.getTime() - since.getTime()) / 1000)) : 0);
    const views = await this.views(companyId, page.items);
    const items = views.map((v, i) => ({ ...v, position: page.before + i + 1, waitSeconds: waited(v.ticket.waitingSince) }));
    const last = page.items.at(-1);
    const nextCursor = page.hasMore && last ? encodeCursor({ f: bound, k: [priorityRank(last.priority), last.waitingSince?.toISOString() ?? null, last.id] }) : null;
    return { items, limit, nextCursor, hasMore: page.hasMore, total: page.total, oldestWaitSeconds: waited(page.oldestWaitingSince) };
  }
}
