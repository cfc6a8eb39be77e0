import { describe, expect, it } from '@jest/globals';
import { given } from '../shared/testing/decider-spec.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { DomainError, InvalidTransitionError, ValidationError } from '../shared/errors.js';
import { newTicket, ticketDecider, allowedMoves, priorityRank, type Ticket, type TicketLastMessage } from './ticket.js';
import { AlreadyAssignedError, TicketClosedError } from './ticket-errors.js';

const MIN = 60 * 1000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const clock = () => new ManualClock('2026-03-01T12:00:00.000Z');
const base = (extra: Partial<Ticket> = {}, at = new Date('2026-03-01T12:00:00.000Z')): Ticket => ({
  ...newTicket({ id: 't1', companyId: 'c1', number: 7, status: 'open', setorId: 's1', contactId: 'k1', conversationId: 'v1', source: 'inbound' }, at),
  ...extra,
});
const message = (at: Date, direction: 'inbound' | 'outbound' = 'inbound'): TicketLastMessage => ({ id: 'm1', direction, type: 'message', preview: 'oi', at });

describe('ticketDecider: opening', () => {
  it('opens an open ticket waiting since now, or a pending one not waiting', () => {
    const now = clock().now();
    given(ticketDecider, null)
      .when({ type: 'open', at: now, ticket: { id: 't1', companyId: 'c1', number: 7, status: 'open', setorId: 's1', contactId: 'k1', conversationId: 'v1', source: 'api' } })
      .thenState({ status: 'open', waitingSince: now, lastActivityAt: now, version: 1, rating: { status: 'none', requestedAt: null, score: null, comment: null, ratedAt: null, source: null, agentId: null, teamId: null } });
    given(ticketDecider, null)
      .when({ type: 'open', at: now, ticket: { id: 't1', companyId: 'c1', number: 7, status: 'pending', setorId: 's1', contactId: 'k1', conversationId: 'v1', source: 'inbound' } })
      .thenState({ status: 'pending', waitingSince: null });
  });

  it('refuses to open a ticket that exists', () => {
    given(ticketDecider, base()).when({ type: 'open', at: clock().now(), ticket: base() as never }).thenThrows(DomainError);
  });
});

describe('ticketDecider: status moves by PATCH', () => {
  it('moves pending to open (waiting from then), snoozed and closed', () => {
    const c = clock();
    c.advance(5 * MIN);
    const now = c.now();
    const pending = base({ status: 'pending', waitingSince: null });
    given(ticketDecider, pending)
      .when({ type: 'changeStatus', at: now, to: 'open' })
      .then([{ type: 'statusChanged', at: now, from: 'pending', to: 'open', snoozedUntil: null, reason: null }]);
    given(ticketDecider, pending).when({ type: 'changeStatus', at: now, to: 'open' }).thenState({ status: 'open', waitingSince: now, updatedAt: now });
    given(ticketDecider, pending).when({ type: 'changeStatus', at: now, to: 'snoozed', snoozedUntil: new Date(now.getTime() + HOUR) }).thenState({ status: 'snoozed', snoozedUntil: new Date(now.getTime() + HOUR) });
    given(ticketDecider, pending).when({ type: 'changeStatus', at: now, to: 'closed', reason: 'resolvido' }).thenState({ status: 'closed', closedAt: now, closeReason: 'resolvido' });
  });

  it('moves open to pending or snoozed (stops waiting) and closed, crediting agent and team', () => {
    const now = clock().now();
    const open = base({ agentId: 'a1', teamId: 'tm1' });
    given(ticketDecider, open).when({ type: 'changeStatus', at: now, to: 'pending' }).thenState({ status: 'pending', waitingSince: null });
    given(ticketDecider, open).when({ type: 'changeStatus', at: now, to: 'snoozed' }).thenState({ status: 'snoozed', snoozedUntil: null, waitingSince: null });
    const closed = given(ticketDecider, open).when({ type: 'changeStatus', at: now, to: 'closed' }).thenState({ status: 'closed', waitingSince: null });
    expect([closed!.rating.agentId, closed!.rating.teamId]).toEqual(['a1', 'tm1']);
  });

  it('moves snoozed to open, pending and closed, clearing the snooze', () => {
    const now = clock().now();
    const snoozed = base({ status: 'snoozed', snoozedUntil: new Date(now.getTime() + HOUR), waitingSince: null });
    given(ticketDecider, snoozed).when({ type: 'changeStatus', at: now, to: 'open' }).thenState({ status: 'open', snoozedUntil: null, waitingSince: now });
    given(ticketDecider, snoozed).when({ type: 'changeStatus', at: now, to: 'pending' }).thenState({ status: 'pending', snoozedUntil: null });
    given(ticketDecider, snoozed).when({ type: 'changeStatus', at: now, to: 'closed' }).thenState({ status: 'closed', snoozedUntil: null });
  });

  it('answers a move to the current status as unchanged, but a new snooze time as a change', () => {
    const now = clock().now();
    given(ticketDecider, base()).when({ type: 'changeStatus', at: now, to: 'open' }).then([]);
    const until = new Date(now.getTime() + HOUR);
    const snoozed = base({ status: 'snoozed', snoozedUntil: until, waitingSince: null });
    given(ticketDecider, snoozed).when({ type: 'changeStatus', at: now, to: 'snoozed', snoozedUntil: until }).then([]);
    given(ticketDecider, snoozed).when({ type: 'changeStatus', at: now, to: 'snoozed' }).then([]);
    given(ticketDecider, snoozed).when({ type: 'changeStatus', at: now, to: 'snoozed', snoozedUntil: new Date(now.getTime() + 2 * HOUR) }).thenState({ snoozedUntil: new Date(now.getTime() + 2 * HOUR) });
  });

  it('takes a snooze of 60 s to 90 days ahead, refusing others with 400', () => {
    const now = clock().now();
    const ahead = (ms: number) => ({ type: 'changeStatus' as const, at: now, to: 'snoozed' as const, snoozedUntil: new Date(now.getTime() + ms) });
    given(ticketDecider, base()).when(ahead(MIN)).thenState({ status: 'snoozed' });
    given(ticketDecider, base()).when(ahead(90 * DAY)).thenState({ status: 'snoozed' });
    given(ticketDecider, base()).when(ahead(MIN - 1)).thenThrows(ValidationError);
    given(ticketDecider, base()).when(ahead(90 * DAY + 1)).thenThrows(ValidationError);
  });

  it('reopens a closed ticket by PATCH within 7 days, waiting from then; later it is 409 INVALID_TRANSITION with no allowed move', () => {
    const c = clock();
    const closedAt = c.now();
    const closed = base({ status: 'closed', closedAt, closeReason: 'ok', waitingSince: null });
    c.advance(7 * DAY);
    const within = c.now();
    given(ticketDecider, closed).when({ type: 'changeStatus', at: within, to: 'open' }).thenState({ status: 'open', closedAt: null, closeReason: null, waitingSince: within });
    c.advance(1);
    const error = given(ticketDecider, closed).when({ type: 'changeStatus', at: c.now(), to: 'open' }).thenThrows(InvalidTransitionError) as InvalidTransitionError;
    expect(error.details).toEqual({ status: 'closed', allowed: [] });
    expect(allowedMoves(closed, within)).toEqual(['open']);
  });

  it('refuses moves the table lacks with INVALID_TRANSITION { status, allowed }', () => {
    const now = clock().now();
    const closed = base({ status: 'closed', closedAt: now, waitingSince: null });
    const toSnoozed = given(ticketDecider, closed).when({ type: 'changeStatus', at: now, to: 'snoozed' }).thenThrows(InvalidTransitionError) as InvalidTransitionError;
    expect(toSnoozed.details).toEqual({ status: 'closed', allowed: ['open'] });
    const toPending = given(ticketDecider, closed).when({ type: 'changeStatus', at: now, to: 'pending' }).thenThrows(InvalidTransitionError) as InvalidTransitionError;
    expect(toPending.details).toEqual({ status: 'closed', allowed: ['open'] });
  });
});

describe('ticketDecider: snooze wake-up and the contact writing', () => {
  it('wakes a snoozed ticket once its time is reached, not before', () => {
    const c = clock();
    const snoozed = base({ status: 'snoozed', snoozedUntil: new Date(c.now().getTime() + HOUR), waitingSince: null });
    c.advance(HOUR - 1);
    given(ticketDecider, snoozed).when({ type: 'wake', at: c.now() }).then([]);
    c.advance(1);
    const now = c.now();
    given(ticketDecider, snoozed)
      .when({ type: 'wake', at: now })
      .then([{ type: 'statusChanged', at: now, from: 'snoozed', to: 'open', snoozedUntil: null, reason: 'snooze_expired' }]);
    given(ticketDecider, base({ status: 'snoozed', snoozedUntil: null })).when({ type: 'wake', at: now }).then([]);
    given(ticketDecider, base()).when({ type: 'wake', at: now }).then([]);
  });

  it('opens a snoozed ticket when the contact writes, and starts an open one waiting', () => {
    const c = clock();
    const snoozed = base({ status: 'snoozed', snoozedUntil: null, waitingSince: null });
    c.advance(MIN);
    const now = c.now();
    given(ticketDecider, snoozed).when({ type: 'contactWrote', at: now, message: message(now) }).thenState({ status: 'open', waitingSince: now, lastActivityAt: now, lastMessage: message(now) });
    const replied = base({ waitingSince: null });
    given(ticketDecider, replied).when({ type: 'contactWrote', at: now, message: message(now) }).thenState({ waitingSince: now });
    // Already waiting: the wait keeps its start.
    const waiting = base();
    given(ticketDecider, waiting).when({ type: 'contactWrote', at: now, message: message(now) }).thenState({ waitingSince: waiting.waitingSince });
    given(ticketDecider, base({ status: 'pending', waitingSince: null })).when({ type: 'contactWrote', at: now, message: message(now) }).thenState({ status: 'pending', waitingSince: null });
    given(ticketDecider, base({ status: 'closed', closedAt: now })).when({ type: 'contactWrote', at: now, message: message(now) }).thenThrows(TicketClosedError);
  });

  it('stops the wait on a public reply, the first one being the first response', () => {
    const c = clock();
    c.advance(MIN);
    const first = c.now();
    const replied = given(ticketDecider, base()).when({ type: 'publicReplySent', at: first, message: message(first, 'outbound') }).thenState({ waitingSince: null, firstResponseAt: first });
    c.advance(MIN);
    given(ticketDecider, replied).when({ type: 'publicReplySent', at: c.now(), message: message(c.now(), 'outbound') }).thenState({ firstResponseAt: first });
    given(ticketDecider, base({ status: 'closed', closedAt: first })).when({ type: 'publicReplySent', at: first, message: message(first) }).thenThrows(TicketClosedError);
  });
});

describe('ticketDecider: assignment, priority and handoff', () => {
  it('assigns an agent, opening a pending ticket; unchanged values change nothing', () => {
    const now = clock().now();
    given(ticketDecider, base({ status: 'pending', waitingSince: null }))
      .when({ type: 'assign', at: now, agentId: 'a1', by: 'api' })
      .then([
        { type: 'assigned', at: now, agentId: 'a1', teamId: null, previousAgentId: null, previousTeamId: null, by: 'api' },
        { type: 'statusChanged', at: now, from: 'pending', to: 'open', snoozedUntil: null, reason: 'assigned' },
      ]);
    given(ticketDecider, base({ agentId: 'a1' })).when({ type: 'assign', at: now, agentId: 'a1', by: 'api' }).then([]);
    given(ticketDecider, base({ agentId: 'a1', teamId: 'tm' })).when({ type: 'assign', at: now, teamId: null, by: 'api' }).thenState({ agentId: 'a1', teamId: null });
    given(ticketDecider, base({ status: 'closed', closedAt: now })).when({ type: 'assign', at: now, agentId: 'a1', by: 'api' }).thenThrows(TicketClosedError);
  });

  it('claims only a ticket without agent (409 ALREADY_ASSIGNED otherwise; the holder again is unchanged)', () => {
    const now = clock().now();
    given(ticketDecider, base()).when({ type: 'assign', at: now, agentId: 'a1', claim: true, by: 'api' }).thenState({ agentId: 'a1' });
    given(ticketDecider, base({ agentId: 'a2' })).when({ type: 'assign', at: now, agentId: 'a1', claim: true, by: 'api' }).thenThrows(AlreadyAssignedError);
    given(ticketDecider, base({ agentId: 'a1' })).when({ type: 'assign', at: now, agentId: 'a1', claim: true, by: 'api' }).then([]);
  });

  it('sets the priority, unchanged when the same', () => {
    const now = clock().now();
    given(ticketDecider, base()).when({ type: 'setPriority', at: now, priority: 'urgent' }).then([{ type: 'prioritySet', at: now, priority: 'urgent', previous: null }]);
    given(ticketDecider, base({ priority: 'low' })).when({ type: 'setPriority', at: now, priority: 'low' }).then([]);
    expect(['urgent', 'high', 'medium', 'low', null].map((p) => priorityRank(p as never))).toEqual([0, 1, 2, 3, 4]);
  });

  it('hands a pending ticket off: open, summary pinned, assignee and priority as given; closed is INVALID_TRANSITION', () => {
    const now = clock().now();
    given(ticketDecider, base({ status: 'pending', waitingSince: null }))
      .when({ type: 'handoff', at: now, summary: 'quer orçamento', teamId: 'tm1', priority: 'high' })
      .then([
        { type: 'statusChanged', at: now, from: 'pending', to: 'open', snoozedUntil: null, reason: 'handoff' },
        { type: 'handoffRecorded', at: now, summary: 'quer orçamento' },
        { type: 'assigned', at: now, agentId: null, teamId: 'tm1', previousAgentId: null, previousTeamId: null, by: 'handoff' },
        { type: 'prioritySet', at: now, priority: 'high', previous: null },
      ]);
    given(ticketDecider, base()).when({ type: 'handoff', at: now, summary: 's' }).thenState({ status: 'open', handoff: { summary: 's', at: now } });
    // To the queue (no assignee before or after): still an assignment event saying so.
    given(ticketDecider, base())
      .when({ type: 'handoff', at: now, summary: 's' })
      .then([
        { type: 'handoffRecorded', at: now, summary: 's' },
        { type: 'assigned', at: now, agentId: null, teamId: null, previousAgentId: null, previousTeamId: null, by: 'handoff' },
      ]);
    given(ticketDecider, base({ status: 'closed', closedAt: now })).when({ type: 'handoff', at: now, summary: 's' }).thenThrows(InvalidTransitionError);
  });
});

describe('ticketDecider: rating', () => {
  it('requests a rating once, on a closed ticket only', () => {
    const now = clock().now();
    const closed = base({ status: 'closed', closedAt: now });
    const requested = given(ticketDecider, closed).when({ type: 'requestRating', at: now }).thenState({ rating: { ...closed.rating, status: 'requested', requestedAt: now } });
    given(ticketDecider, requested).when({ type: 'requestRating', at: now }).then([]);
    given(ticketDecider, base()).when({ type: 'requestRating', at: now }).thenThrows(InvalidTransitionError);
  });

  it('rates; the same rating again is a no-op, another within 24 h replaces it, later is 409 CONFLICT', () => {
    const c = clock();
    const closed = base({ status: 'closed', closedAt: c.now() });
    const rated = given(ticketDecider, closed).when({ type: 'rate', at: c.now(), score: 4, comment: null, source: 'reply' }).thenState({ rating: { ...closed.rating, status: 'rated', score: 4, ratedAt: c.now(), source: 'reply' } });
    c.advance(HOUR);
    given(ticketDecider, rated).when({ type: 'rate', at: c.now(), score: 4, comment: null, source: 'reply' }).then([]);
    given(ticketDecider, rated).when({ type: 'rate', at: c.now(), score: 5, comment: 'ótimo', source: 'api' }).thenState({ rating: { ...rated!.rating, score: 5, comment: 'ótimo', source: 'api', ratedAt: c.now() } });
    c.advance(DAY);
    const late = given(ticketDecider, rated).when({ type: 'rate', at: c.now(), score: 1, comment: null, source: 'api' }).thenThrows(DomainError) as DomainError;
    expect(late.code).toBe('CONFLICT');
    given(ticketDecider, closed).when({ type: 'rate', at: c.now(), score: 6, comment: null, source: 'api' }).thenThrows(ValidationError);
    given(ticketDecider, base()).when({ type: 'rate', at: c.now(), score: 5, comment: null, source: 'api' }).thenThrows(InvalidTransitionError);
  });

  it('expires an unanswered request after 24 hours', () => {
    const c = clock();
    const requested = base({ status: 'closed', closedAt: c.now(), rating: { ...base().rating, status: 'requested', requestedAt: c.now() } });
    c.advance(DAY - 1);
    given(ticketDecider, requested).when({ type: 'expireRating', at: c.now() }).then([]);
    c.advance(1);
    given(ticketDecider, requested).when({ type: 'expireRating', at: c.now() }).thenState({ rating: { ...requested.rating, status: 'expired' } });
  });

  it('marks a request that did not go as not_sent (a later close may request again); other ratings stay', () => {
    const c = clock();
    const closed = base({ status: 'closed', closedAt: c.now() });
    const requested = { ...closed, rating: { ...closed.rating, status: 'requested' as const, requestedAt: c.now() } };
    const notSent = given(ticketDecider, requested).when({ type: 'ratingNotSent', at: c.now() }).thenState({ rating: { ...requested.rating, status: 'not_sent', requestedAt: null } });
    given(ticketDecider, notSent).when({ type: 'requestRating', at: c.now() }).thenState({ rating: { ...requested.rating, status: 'requested', requestedAt: c.now() } });
    given(ticketDecider, closed).when({ type: 'ratingNotSent', at: c.now() }).then([]);
    const rated = { ...closed, rating: { ...closed.rating, status: 'rated' as const, score: 5, ratedAt: c.now() } };
    given(ticketDecider, rated).when({ type: 'ratingNotSent', at: c.now() }).then([]);
  });
});
