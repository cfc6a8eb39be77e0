import type { Decider } from '../shared/decider.js';
import { DomainError, InvalidTransitionError, ValidationError } from '../shared/errors.js';
import { AlreadyAssignedError, TicketClosedError } from './ticket-errors.js';

export type TicketStatus = 'pending' | 'open' | 'snoozed' | 'closed';
export const TicketStatuses: readonly TicketStatus[] = ['pending', 'open', 'snoozed', 'closed'];
/** The statuses GET /v1/tickets lists without a `status` filter. */
export const ActiveTicketStatuses: readonly TicketStatus[] = ['open', 'pending', 'snoozed'];
export type TicketPriority = 'low' | 'medium' | 'high' | 'urgent';
export const TicketPriorities: readonly TicketPriority[] = ['low', 'medium', 'high', 'urgent'];
export type RatingStatus = 'none' | 'requested' | 'rated' | 'expired' | 'not_sent';
export type TicketSource = 'inbound' | 'api' | 'handoff';
/** Who moved an assignment (`conversation.assigned` `by`). */
export type AssignedBy = 'api' | 'auto' | 'handoff';

/** Queue order of a priority: urgent first, none last (the `priority_rank` column). */
export function priorityRank(priority: TicketPriority | null): number {
  switch (priority) {
    case 'urgent':
      return 0;
    case 'high':
      return 1;
    case 'medium':
      return 2;
    case 'low':
      return 3;
    default:
      return 4;
  }
}

/** The last message of a ticket as lists show it. */
export interface TicketLastMessage {
  id: string;
  direction: 'inbound' | 'outbound';
  /** `message` or `note`. */
  type: string;
  /** The first characters of its text (or the media type). */
  preview: string | null;
  at: Date;
}

/** CSAT of a ticket (conversations.md §3): one request per ticket, credited to the agent and team at closing. */
export interface TicketRating {
  status: RatingStatus;
  requestedAt: Date | null;
  score: number | null;
  comment: string | null;
  ratedAt: Date | null;
  /** Where the rating came from: `reply` (the contact in the chat) or `api`. */
  source: string | null;
  agentId: string | null;
  teamId: string | null;
}

/** One attendance of a contact on a setor (conversations.md §1). At most one per setor and contact is not `closed`. */
export interface Ticket {
  id: string;
  companyId: string;
  /** The company's protocol number, from 1. */
  number: number;
  status: TicketStatus;
  priority: TicketPriority | null;
  setorId: string;
  contactId: string;
  conversationId: string;
  agentId: string | null;
  teamId: string | null;
  /** Null while snoozed means "until the contact writes". */
  snoozedUntil: Date | null;
  /** Set when it becomes `open` or the contact writes while open; cleared by a public reply or leaving `open`. */
  waitingSince: Date | null;
  lastMessage: TicketLastMessage | null;
  lastActivityAt: Date;
  source: TicketSource;
  firstResponseAt: Date | null;
  closedAt: Date | null;
  closeReason: string | null;
  rating: TicketRating;
  handoff: { summary: string; at: Date } | null;
  tagIds: string[];
  /** Bumped by every stored change; `If-Match` compares it. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A closed ticket may be reopened by PATCH this long after `closedAt`. */
export const REOPEN_BY_PATCH_MS = 7 * 24 * 60 * 60 * 1000;
/** Snooze bounds: at least 60 s, at most 90 days ahead. */
export const MIN_SNOOZE_MS = 60 * 1000;
export const MAX_SNOOZE_MS = 90 * 24 * 60 * 60 * 1000;
/** A rating request is answered for 24 hours; a rating may be replaced for 24 hours. */
export const RATING_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Where each status may move to by PATCH (a closed ticket only within {@link REOPEN_BY_PATCH_MS}). */
export const TICKET_MOVES: Readonly<Record<TicketStatus, readonly TicketStatus[]>> = {
  pending: ['open', 'snoozed', 'closed'],
  open: ['snoozed', 'pending', 'closed'],
  snoozed: ['open', 'pending', 'closed'],
  closed: ['open'],
};

/** The fields of a new ticket; `openTicket` fills the rest. */
export interface NewTicket {
  id: string;
  companyId: string;
  number: number;
  status: 'pending' | 'open';
  priority?: TicketPriority | null;
  setorId: string;
  contactId: string;
  conversationId: string;
  agentId?: string | null;
  teamId?: string | null;
  source: TicketSource;
  lastMessage?: TicketLastMessage | null;
}

/** A ticket as it is first stored (the `opened` event's state). */
export function newTicket(input: NewTicket, at: Date): Ticket {
  return {
    id: input.id,
    companyId: input.companyId,
    number: input.number,
    status: input.status,
    priority: input.priority ?? null,
    setorId: input.setorId,
    contactId: input.contactId,
    conversationId: input.conversationId,
    agentId: input.agentId ?? null,
    teamId: input.teamId ?? null,
    snoozedUntil: null,
    waitingSince: input.status === 'open' ? at : null,
    lastMessage: input.lastMessage ?? null,
    lastActivityAt: at,
    source: input.source,
    firstResponseAt: null,
    closedAt: null,
    closeReason: null,
    rating: { status: 'none', requestedAt: null, score: null, comment: null, ratedAt: null, source: null, agentId: null, teamId: null },
    handoff: null,
    tagIds: [],
    version: 1,
    createdAt: at,
    updatedAt: at,
  };
}

export type TicketCommand =
  | { type: 'open'; at: Date; ticket: NewTicket }
  /** PATCH status (and inbound or POST reopen: `to: 'open'` from closed). `snoozedUntil` only with `snoozed`. */
  | { type: 'changeStatus'; at: Date; to: TicketStatus; snoozedUntil?: Date | null; reason?: string | null }
  /**
   * PATCH assignee, auto-assignment. `undefined` keeps a field, `null` clears it. `claim`: only when
   * no agent holds it (else 409 ALREADY_ASSIGNED; the same agent again is unchanged).
   */
  | { type: 'assign'; at: Date; agentId?: string | null; teamId?: string | null; claim?: boolean; by: AssignedBy }
  | { type: 'setPriority'; at: Date; priority: TicketPriority | null }
  /** An inbound message joined the ticket: a snoozed one opens, an open one starts waiting. */
  | { type: 'contactWrote'; at: Date; message: TicketLastMessage }
  /** A public reply was sent: the ticket stops waiting; the first one is its first response. */
  | { type: 'publicReplySent'; at: Date; message: TicketLastMessage }
  /** The snooze time was reached (the wake-up job). */
  | { type: 'wake'; at: Date }
  /** POST handoff: open, summary pinned, assignee and priority as given. */
  | { type: 'handoff'; at: Date; summary: string; agentId?: string | null; teamId?: string | null; priority?: TicketPriority | null }
  | { type: 'requestRating'; at: Date }
  | { type: 'rate'; at: Date; score: number; comment: string | null; source: string }
  | { type: 'expireRating'; at: Date }
  /** The queued rating request did not go (window closed, no balance, ticket reopened...): the rating is `not_sent`. */
  | { type: 'ratingNotSent'; at: Date };

export type TicketEvent =
  | { type: 'opened'; at: Date; ticket: Ticket }
  | { type: 'statusChanged'; at: Date; from: TicketStatus; to: TicketStatus; snoozedUntil: Date | null; reason: string | null }
  | { type: 'assigned'; at: Date; agentId: string | null; teamId: string | null; previousAgentId: string | null; previousTeamId: string | null; by: AssignedBy }
  | { type: 'prioritySet'; at: Date; priority: TicketPriority | null; previous: TicketPriority | null }
  | { type: 'contactWrote'; at: Date; message: TicketLastMessage }
  | { type: 'publicReplySent'; at: Date; message: TicketLastMessage }
  | { type: 'handoffRecorded'; at: Date; summary: string }
  | { type: 'ratingRequested'; at: Date }
  | { type: 'rated'; at: Date; score: number; comment: string | null; source: string; replaced: boolean }
  | { type: 'ratingExpired'; at: Date }
  | { type: 'ratingRequestNotSent'; at: Date };

function existing(state: Ticket | null): Ticket {
  if (!state) throw new DomainError('NOT_FOUND', 'Ticket not found');
  return state;
}

function active(state: Ticket | null): Ticket {
  const ticket = existing(state);
  if (ticket.status === 'closed') throw new TicketClosedError();
  return ticket;
}

/** The statuses a PATCH may move `ticket` to at `at` (a closed one: `open` within 7 days, else none). */
export function allowedMoves(ticket: Pick<Ticket, 'status' | 'closedAt'>, at: Date): TicketStatus[] {
  if (ticket.status === 'closed') {
    const within = ticket.closedAt !== null && at.getTime() - ticket.closedAt.getTime() <= REOPEN_BY_PATCH_MS;
    return within ? ['open'] : [];
  }
  return [...TICKET_MOVES[ticket.status]];
}

function checkSnooze(until: Date | null | undefined, at: Date): Date | null {
  if (until === undefined || until === null) return null;
  const ahead = until.getTime() - at.getTime();
  if (ahead < MIN_SNOOZE_MS || ahead > MAX_SNOOZE_MS) {
    throw new ValidationError('snoozed_until must be between 60 seconds and 90 days ahead', { field: 'snoozed_until' });
  }
  return until;
}

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/**
 * A ticket's life (conversations.md §1): opened pending or open; moved by PATCH between pending,
 * open and snoozed, closed from any of them, reopened within 7 days; snoozed ones woken by time or
 * by the contact writing; assigned (an agent opens a pending ticket); handed off; rated.
 * A handoff always records an assignment event (`by: handoff`), even to the same holder or the queue.
 * A move to the current status changes nothing (`[]`); a move the table lacks is 409
 * INVALID_TRANSITION `{ status, allowed }`; writes that need an active ticket refuse a closed one
 * with 409 TICKET_CLOSED (handoff: INVALID_TRANSITION, as the contract says).
 */
export const ticketDecider: Decider<Ticket | null, TicketCommand, TicketEvent> = {
  initialState: () => null,
  decide(command, state) {
    const at = command.at;
    switch (command.type) {
      case 'open': {
        if (state) throw new DomainError('CONFLICT', 'Ticket already exists');
        return [{ type: 'opened', at, ticket: newTicket(command.ticket, at) }];
      }
      case 'changeStatus': {
        const ticket = existing(state);
        const to = command.to;
        if (to === ticket.status) {
          if (to !== 'snoozed') return [];
          const until = checkSnooze(command.snoozedUntil, at);
          if (command.snoozedUntil === undefined || sameTime(until, ticket.snoozedUntil)) return [];
          return [{ type: 'statusChanged', at, from: 'snoozed', to: 'snoozed', snoozedUntil: until, reason: command.reason ?? null }];
        }
        const allowed = allowedMoves(ticket, at);
        if (!allowed.includes(to)) throw new InvalidTransitionError('ticket', ticket.status, `move to ${to}`, allowed);
        const snoozedUntil = to === 'snoozed' ? checkSnooze(command.snoozedUntil, at) : null;
        return [{ type: 'statusChanged', at, from: ticket.status, to, snoozedUntil, reason: command.reason ?? null }];
      }
      case 'assign': {
        const ticket = active(state);
        if (command.claim && ticket.agentId !== null && ticket.agentId !== command.agentId) throw new AlreadyAssignedError(ticket.agentId);
        const agentId = command.agentId === undefined ? ticket.agentId : command.agentId;
        const teamId = command.teamId === undefined ? ticket.teamId : command.teamId;
        const events: TicketEvent[] = [];
        if (agentId !== ticket.agentId || teamId !== ticket.teamId) {
          events.push({ type: 'assigned', at, agentId, teamId, previousAgentId: ticket.agentId, previousTeamId: ticket.teamId, by: command.by });
        }
        if (agentId !== null && agentId !== ticket.agentId && ticket.status === 'pending') {
          events.push({ type: 'statusChanged', at, from: 'pending', to: 'open', snoozedUntil: null, reason: 'assigned' });
        }
        return events;
      }
      case 'setPriority': {
        const ticket = existing(state);
        if (ticket.priority === command.priority) return [];
        return [{ type: 'prioritySet', at, priority: command.priority, previous: ticket.priority }];
      }
      case 'contactWrote': {
        const ticket = active(state);
        const events: TicketEvent[] = [];
        if (ticket.status === 'snoozed') events.push({ type: 'statusChanged', at, from: 'snoozed', to: 'open', snoozedUntil: null, reason: 'contact_wrote' });
        events.push({ type: 'contactWrote', at, message: command.message });
        return events;
      }
      case 'publicReplySent': {
        active(state);
        return [{ type: 'publicReplySent', at, message: command.message }];
      }
      case 'wake': {
        const ticket = existing(state);
        if (ticket.status !== 'snoozed' || ticket.snoozedUntil === null || ticket.snoozedUntil.getTime() > at.getTime()) return [];
        return [{ type: 'statusChanged', at, from: 'snoozed', to: 'open', snoozedUntil: null, reason: 'snooze_expired' }];
      }
      case 'handoff': {
        const ticket = existing(state);
        if (ticket.status === 'closed') throw new InvalidTransitionError('ticket', 'closed', 'hand off', allowedMoves(ticket, at));
        const events: TicketEvent[] = [];
        if (ticket.status !== 'open') events.push({ type: 'statusChanged', at, from: ticket.status, to: 'open', snoozedUntil: null, reason: 'handoff' });
        events.push({ type: 'handoffRecorded', at, summary: command.summary });
        const agentId = command.agentId === undefined ? ticket.agentId : command.agentId;
        const teamId = command.teamId === undefined ? ticket.teamId : command.teamId;
        // Always: a handoff is news for whoever follows assignments, even to the same holder or the queue.
        events.push({ type: 'assigned', at, agentId, teamId, previousAgentId: ticket.agentId, previousTeamId: ticket.teamId, by: 'handoff' });
        if (command.priority !== undefined && command.priority !== ticket.priority) {
          events.push({ type: 'prioritySet', at, priority: command.priority, previous: ticket.priority });
        }
        return events;
      }
      case 'requestRating': {
        const ticket = existing(state);
        if (ticket.status !== 'closed') throw new InvalidTransitionError('ticket', ticket.status, 'request a rating of', ['closed']);
        if (ticket.rating.status !== 'none' && ticket.rating.status !== 'not_sent') return [];
        return [{ type: 'ratingRequested', at }];
      }
      case 'rate': {
        const ticket = existing(state);
        if (ticket.status !== 'closed') throw new InvalidTransitionError('ticket', ticket.status, 'rate', ['closed']);
        if (!Number.isInteger(command.score) || command.score < 1 || command.score > 5) throw new ValidationError('score must be 1-5', { field: 'score' });
        const rating = ticket.rating;
        if (rating.status === 'rated' && rating.ratedAt) {
          if (rating.score === command.score && rating.comment === command.comment) return [];
          if (at.getTime() - rating.ratedAt.getTime() > RATING_WINDOW_MS) {
            throw new DomainError('CONFLICT', 'The ticket was rated more than 24 hours ago', { rated_at: rating.ratedAt.toISOString() });
          }
          return [{ type: 'rated', at, score: command.score, comment: command.comment, source: command.source, replaced: true }];
        }
        return [{ type: 'rated', at, score: command.score, comment: command.comment, source: command.source, replaced: false }];
      }
      case 'expireRating': {
        const ticket = existing(state);
        const rating = ticket.rating;
        if (rating.status !== 'requested' || !rating.requestedAt || at.getTime() - rating.requestedAt.getTime() < RATING_WINDOW_MS) return [];
        return [{ type: 'ratingExpired', at }];
      }
      case 'ratingNotSent': {
        const ticket = existing(state);
        // Only a request still waiting: one answered, expired or never made stays as it is.
        if (ticket.rating.status !== 'requested') return [];
        return [{ type: 'ratingRequestNotSent', at }];
      }
    }
  },
  evolve(state, event) {
    if (event.type === 'opened') return { ...event.ticket, rating: { ...event.ticket.rating }, tagIds: [...event.ticket.tagIds] };
    if (!state) return state;
    const at = event.at;
    switch (event.type) {
      case 'statusChanged': {
        const next: Ticket = { ...state, status: event.to, snoozedUntil: event.to === 'snoozed' ? event.snoozedUntil : null, updatedAt: at, lastActivityAt: at };
        if (event.to === 'open') next.waitingSince = event.from === 'open' ? state.waitingSince : at;
        else next.waitingSince = null;
        if (event.to === 'closed') {
          next.closedAt = at;
          next.closeReason = event.reason;
          next.rating = { ...state.rating, agentId: state.agentId, teamId: state.teamId };
        } else if (event.from === 'closed') {
          next.closedAt = null;
          next.closeReason = null;
        }
        return next;
      }
      case 'assigned':
        return { ...state, agentId: event.agentId, teamId: event.teamId, updatedAt: at };
      case 'prioritySet':
        return { ...state, priority: event.priority, updatedAt: at };
      case 'contactWrote':
        return {
          ...state,
          lastMessage: event.message,
          lastActivityAt: at,
          waitingSince: state.status === 'open' && state.waitingSince === null ? at : state.waitingSince,
          updatedAt: at,
        };
      case 'publicReplySent':
        return { ...state, lastMessage: event.message, lastActivityAt: at, waitingSince: null, firstResponseAt: state.firstResponseAt ?? at, updatedAt: at };
      case 'handoffRecorded':
        return { ...state, handoff: { summary: event.summary, at }, lastActivityAt: at, updatedAt: at };
      case 'ratingRequested':
        return { ...state, rating: { ...state.rating, status: 'requested', requestedAt: at }, updatedAt: at };
      case 'rated':
        return { ...state, rating: { ...state.rating, status: 'rated', score: event.score, comment: event.comment, ratedAt: at, source: event.source }, updatedAt: at };
      case 'ratingExpired':
        return { ...state, rating: { ...state.rating, status: 'expired' }, updatedAt: at };
      case 'ratingRequestNotSent':
        return { ...state, rating: { ...state.rating, status: 'not_sent', requestedAt: null }, updatedAt: at };
    }
  },
};
