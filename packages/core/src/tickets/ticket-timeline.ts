import { ticketMessage } from './ticket-message.js';
import type { Contact } from '../contacts/index.js';
import type { MessageRecord, MessageRepositories } from '../messages/index.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { isUuid } from '../shared/ids.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { Ticket } from './ticket.js';
import type { TicketRepositories } from './ticket-repository.js';

/** `order` of GET /v1/tickets/:id/messages. */
export type TimelineOrder = 'asc' | 'desc';
/** `scope`: the ticket's own messages, or its whole conversation (earlier tickets and messages without ticket). */
export type TimelineScope = 'ticket' | 'conversation';

/** One page request of a timeline: rows after (`createdAt`, `id`) in `order`. */
export interface TimelineQuery {
  companyId: string;
  /** Scope ticket. */
  ticketId?: string;
  /** Scope conversation. */
  conversationId?: string;
  order: TimelineOrder;
  after: { at: Date; id: string } | null;
  limit: number;
}

/** Reads timelines: the messages, notes and activities of a ticket or a conversation, by (`createdAt`, `id`). */
export interface TicketTimelineRepository {
  list(query: TimelineQuery): Promise<{ items: MessageRecord[]; hasMore: boolean }>;
}
export const TicketTimelineRepository = Symbol.for('carteiro.TicketTimelineRepository');

/** The timeline's repository (see `Repositories`). */
export interface TicketTimelineRepositories {
  ticketTimeline: TicketTimelineRepository;
}

/** A timeline row saying something happened to the ticket (`type: activity`). */
export function activityEntry(
  id: string,
  ticket: Pick<Ticket, 'id' | 'companyId' | 'conversationId' | 'setorId'>,
  contact: Pick<Contact, 'id' | 'phone'>,
  at: Date,
  activity: { kind: string; from: string | null; to: string | null },
  text: string,
): MessageRecord {
  return ticketMessage(
    { ...ticket, contactId: contact.id },
    { id, phone: contact.phone, at, type: 'activity', author: { type: 'system', id: null }, content: { type: 'text', text }, activity },
  );
}

/** The most a timeline page holds. */
export const MAX_TIMELINE_LIMIT = 100;

interface TimelineCursor {
  /** Order, scope and ticket the cursor was made for. */
  o: TimelineOrder;
  s: TimelineScope;
  t: string;
  a: string;
  i: string;
}

function encodeCursor(cursor: TimelineCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(value: string, expected: Pick<TimelineCursor, 'o' | 's' | 't'>): { at: Date; id: string } {
  const invalid = () => new ValidationError('cursor is not a cursor of this timeline with these filters', { field: 'cursor' });
  let parsed: Partial<TimelineCursor>;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<TimelineCursor>;
  } catch {
    throw invalid();
  }
  if (!parsed || parsed.o !== expected.o || parsed.s !== expected.s || parsed.t !== expected.t || typeof parsed.a !== 'string' || typeof parsed.i !== 'string' || !isUuid(parsed.i)) throw invalid();
  const at = new Date(parsed.a);
  // Instants PostgreSQL and JavaScript agree on (year 1 to 9999), so that a forged one never reaches the database.
  if (Number.isNaN(at.getTime()) || at.getTime() < -62_135_596_800_000 || at.getTime() > 253_402_300_799_999) throw invalid();
  return { at, id: parsed.i };
}

/** A page of a timeline. */
export interface TimelinePage {
  ticket: Ticket;
  items: MessageRecord[];
  limit: number;
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * GET /v1/tickets/:id/messages: the ticket's messages (inbound and outbound), notes and
 * activities, newest first by default, by keyset on (`createdAt`, `id`): rows written while a
 * client pages are never repeated or skipped behind its cursor. The cursor is bound to the
 * ticket, order and scope (another's is 400).
 */
export class GetTicketTimeline {
  constructor(private readonly repos: Repositories<TicketRepositories & TicketTimelineRepositories & MessageRepositories>) {}

  async execute(input: { companyId: string; ticketId: string; order?: TimelineOrder; scope?: TimelineScope; limit?: number; cursor?: string | null }): Promise<TimelinePage> {
    const order = input.order ?? 'desc';
    const scope = input.scope ?? 'ticket';
    const limit = input.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TIMELINE_LIMIT) throw new ValidationError(`limit must be 1-${MAX_TIMELINE_LIMIT}`, { field: 'limit' });
    const ticket = await this.repos.tickets.findById(input.companyId, input.ticketId);
    if (!ticket) throw new NotFoundError('Ticket');
    const after = input.cursor ? decodeCursor(input.cursor, { o: order, s: scope, t: ticket.id }) : null;
    const { items, hasMore } = await this.repos.ticketTimeline.list({
      companyId: input.companyId,
      ...(scope === 'ticket' ? { ticketId: ticket.id } : { conversationId: ticket.conversationId }),
      order,
      after,
      limit,
    });
    const last = items[items.length - 1];
    const nextCursor = hasMore && last ? encodeCursor({ o: order, s: scope, t: ticket.id, a: last.createdAt.toISOString(), i: last.id }) : null;
    return { ticket, items, limit, nextCursor, hasMore };
  }
}
