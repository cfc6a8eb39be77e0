import type { AgentRepositories } from '../agents/index.js';
import { transition } from '../shared/decider.js';
import type { EventActor } from '../shared/domain-event.js';
import { NotFoundError, PreconditionFailedError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import { isUuid } from '../shared/ids.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { ticketDecider, type Ticket, type TicketCommand, type TicketEvent } from './ticket.js';
import { ticketOutbox } from './ticket-events.js';
import type { TicketRepositories } from './ticket-repository.js';

/** Who writes and under which condition: the `X-Actor-User-Id` agent and the `If-Match` version. */
export interface TicketWriteContext {
  companyId: string;
  /** `If-Match: "<version>"`: the write is refused with 412 when the stored version differs. */
  ifMatch?: number;
  /** `X-Actor-User-Id`: an agent of the company (unknown: 400), the events' `actor.user_id`. */
  actorUserId?: string | null;
}

/** A write's outcome: the ticket after it and whether anything changed (`changed: false`: no event, nothing written). */
export interface TicketWriteResult {
  ticket: Ticket;
  changed: boolean;
  events: TicketEvent[];
}

/** The events' actor of a request: its `X-Actor-User-Id` must name an agent of the company (else 400). */
export async function resolveTicketActor(repos: Repositories<AgentRepositories>, companyId: string, actorUserId: string | null | undefined): Promise<EventActor> {
  if (actorUserId === undefined || actorUserId === null) return { user_id: null, source: 'api' };
  const agent = isUuid(actorUserId) ? await repos.agents.findById(companyId, actorUserId.toLowerCase()) : null;
  if (!agent) throw new ValidationError('X-Actor-User-Id must be the id of an agent of the company', { header: 'X-Actor-User-Id' });
  return { user_id: agent.id, source: 'api' };
}

/** The ticket with its row locked, checked against `If-Match`; 404 when missing or another company's. */
export async function lockTicket(repos: Repositories<TicketRepositories>, companyId: string, ticketId: string, ifMatch?: number): Promise<Ticket> {
  const ticket = await repos.tickets.lockById(companyId, ticketId);
  if (!ticket) throw new NotFoundError('Ticket');
  if (ifMatch !== undefined && ticket.version !== ifMatch) throw new PreconditionFailedError('ticket', ifMatch, ticket.version);
  return ticket;
}

/**
 * Decides `command` on a locked ticket, stores the result (version + 1) and records its events in
 * the caller's transaction. Unchanged: nothing written, no event.
 */
export async function commitTicket(
  repos: Repositories<TicketRepositories>,
  ticket: Ticket,
  command: TicketCommand,
  ids: IdGenerator,
  actor: EventActor,
): Promise<TicketWriteResult> {
  const { state, events } = transition(ticketDecider, ticket, command);
  if (events.length === 0 || !state) return { ticket, changed: false, events: [] };
  return storeTicket(repos, ticket, state, events, ids, actor);
}

/** Stores `next` over `before` (version + 1) and records the events' facts; 412 when the version moved meanwhile. */
export async function storeTicket(
  repos: Repositories<TicketRepositories>,
  before: Ticket,
  next: Ticket,
  events: TicketEvent[],
  ids: IdGenerator,
  actor: EventActor,
): Promise<TicketWriteResult> {
  const stored = { ...next, version: before.version + 1 };
  if (!(await repos.tickets.save(stored, before.version))) {
    const current = await repos.tickets.findById(before.companyId, before.id);
    throw new PreconditionFailedError('ticket', before.version, current?.version ?? before.version);
  }
  const facts = ticketOutbox(stored, events, ids, actor);
  if (facts.length > 0) await repos.events.record(facts);
  return { ticket: stored, changed: true, events };
}
