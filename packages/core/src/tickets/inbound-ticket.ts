import { DEFAULT_SETOR_INBOX_SETTINGS, type Setor } from '../setores/index.js';
import { systemActor, type DomainEvent } from '../shared/domain-event.js';
import { transition } from '../shared/decider.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { inboundThreadKey, type InboundJoinOutcome, type InboundRatingOutcome, type InboundThreadMessage, type InboundThreads } from '../messages/index.js';
import { ticketDecider, type Ticket, type TicketEvent, type TicketLastMessage } from './ticket.js';
import { autoAssign, type AssignmentRepositories } from './ticket-assignment.js';
import { ticketOutbox } from './ticket-events.js';
import { TicketActiveError } from './ticket-errors.js';
import type { TicketRepositories } from './ticket-repository.js';
import type { ClosingRepositories } from './ticket-closing.js';
import { recordRatingReply } from './rating-reply.js';

/** What an inbound message brings to its ticket. */
export interface InboundTicketInput {
  companyId: string;
  setor: Pick<Setor, 'id' | 'inbox'>;
  contactId: string;
  /** The contact's assistant (AI) in effect now: with the setor's assistant, a new ticket starts `pending`. */
  contactAssistantActive: boolean;
  conversationId: string;
  message: TicketLastMessage;
  at: Date;
  /** The contact was created in this transaction: it has no ticket yet, so none is looked for. */
  contactCreated?: boolean;
  /** With `contactCreated`: the new ticket is not inserted but answered `deferred` (number 0), for `insertOpenedTickets`. */
  deferOpen?: boolean;
  /** The active ticket as the caller knows it (read with its group, or as the group left it); null: none. Absent: read here. */
  active?: Ticket | null;
  /** With `active`: a joined ticket is not saved but answered in `pendingSave`, for `saveAll` at the end of the group. */
  deferSave?: boolean;
}

/** The ticket an inbound message joined, with how it got there and the events of the change. */
export interface InboundTicketResult {
  ticket: Ticket;
  created: boolean;
  reopened: boolean;
  events: DomainEvent[];
  /** Opened but not inserted (`deferOpen`). */
  deferred?: boolean;
  /** Joined but not saved (`deferSave`): the ticket to write where the stored version is `expectedVersion`. */
  pendingSave?: { ticket: Ticket; expectedVersion: number };
}

const MINUTE_MS = 60_000;

/** The advisory lock key serialising inbound handling of one contact (`phoneKey`) on one setor. */
export function contactThreadLockKey(setorId: string, phoneKey: string): string {
  return `ticket-thread:${setorId}:${phoneKey}`;
}

/** Applies `contactWrote` (and, for a closed ticket, the reopening before it) and saves the ticket. */
async function write(repos: Repositories<TicketRepositories>, ids: IdGenerator, ticket: Ticket, input: InboundTicketInput, reopen: boolean) {
  const { next, events } = written(ticket, input, reopen);
  const saved = await repos.tickets.save(next, ticket.version);
  return { saved, ticket: next, events: ticketOutbox(next, events, ids, systemActor) };
}

/** The ticket after `contactWrote` (and the reopening before it), with the next version, and the decider's events. */
function written(ticket: Ticket, input: InboundTicketInput, reopen: boolean) {
  let state: Ticket = ticket;
  const events: TicketEvent[] = [];
  if (reopen) {
    const step = transition(ticketDecider, state, { type: 'changeStatus', at: input.at, to: 'open', reason: 'contact_wrote' });
    state = step.state!;
    events.push(...step.events);
  }
  const wrote = transition(ticketDecider, state, { type: 'contactWrote', at: input.at, message: input.message });
  state = wrote.state!;
  events.push(...wrote.events);
  const next: Ticket = { ...state, version: ticket.version + 1 };
  return { next, events };
}

/**
 * Step 4 of inbound handling (conversations.md §3), under the caller's lock on the setor and
 * contact: join the active ticket (`contactWrote`: a snoozed one opens), else reopen the latest one
 * closed within the setor's `reopen_window_minutes` (it keeps its agent and team), else open one —
 * `pending` when the setor's assistant is on and the contact's AI active, else `open`; team: the
 * setor's `default_team_id`; number: the company's next. Opening a ticket emits
 * `conversation.created` only; moves emit `conversation.status_changed` (T1's `ticketOutbox`). A ticket another writer
 * opened meanwhile (the unique index of active tickets refuses the insert, or a reopen) is re-read
 * and joined.
 */
export async function joinInboundTicket(repos: Repositories<TicketRepositories>, ids: IdGenerator, input: InboundTicketInput): Promise<InboundTicketResult> {
  const settings = input.setor.inbox ?? DEFAULT_SETOR_INBOX_SETTINGS;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    // A contact inserted by this transaction has no ticket (tickets reference it): open one straight away.
    const fresh = attempt === 0 && input.contactCreated === true;
    const known = attempt === 0 && input.active !== undefined;
    const active = fresh ? null : known ? input.active! : await repos.tickets.findActive(input.setor.id, input.contactId);
    if (active && known && input.deferSave === true) {
      // Saved with the group's other joined tickets at its end (one write), where its version is still this one.
      const { next, events } = written(active, input, false);
      return { ticket: next, created: false, reopened: false, events: ticketOutbox(next, events, ids, systemActor), pendingSave: { ticket: next, expectedVersion: active.version } };
    }
    if (active) {
      const joined = await write(repos, ids, active, input, false);
      if (joined.saved) return { ticket: joined.ticket, created: false, reopened: false, events: joined.events };
      continue; // changed meanwhile: read it again
    }
    const windowMs = settings.reopenWindowMinutes * MINUTE_MS;
    const closed = windowMs > 0 && !fresh ? await repos.tickets.findReopenable(input.setor.id, input.contactId, new Date(input.at.getTime() - windowMs)) : null;
    if (closed) {
      try {
        const reopened = await write(repos, ids, closed, input, true);
        if (reopened.saved) return { ticket: reopened.ticket, created: false, reopened: true, events: reopened.events };
      } catch (error) {
        if (!(error instanceof TicketActiveError)) throw error;
      }
      continue;
    }
    const status = settings.assistantEnabled && input.contactAssistantActive ? 'pending' : 'open';
    const id = ids.newId();
    const open = (number: number) =>
      transition(ticketDecider, null, {
        type: 'open',
        at: input.at,
        ticket: {
          id,
          companyId: input.companyId,
          number,
          status,
          setorId: input.setor.id,
          contactId: input.contactId,
          conversationId: input.conversationId,
          teamId: settings.defaultTeamId,
          source: 'inbound',
          lastMessage: input.message,
        },
      });
    if (fresh && input.deferOpen === true) {
      // Inserted later with the other tickets of the group (insertOpenedTickets), which numbers it.
      const { state, events } = open(0);
      const ticket = state!;
      return { ticket, created: true, reopened: false, events: ticketOutbox(ticket, events, ids, systemActor), deferred: true };
    }
    // The company's next number is taken by the insert itself (one statement); the ticket is then the same one with it.
    const number = await repos.tickets.insertNumbered(open(0).state!);
    if (number !== null) {
      const { state, events } = open(number);
      const ticket = state!;
      return { ticket, created: true, reopened: false, events: ticketOutbox(ticket, events, ids, systemActor) };
    }
    // Another writer's ticket won the unique index of active tickets: join it.
  }
  throw new TicketActiveError(null);
}

/**
 * Inserts tickets `joinInboundTicket` opened `deferred`, one write per company, numbered in the order given; the number
 * is set in each ticket and in its `conversation.created`. Answers the numbers in order.
 */
export async function insertOpenedTickets(repos: Repositories<TicketRepositories>, opened: readonly { ticket: Ticket; events: readonly DomainEvent[] }[]): Promise<number[]> {
  const numbers = new Map<string, number>();
  const companies = [...new Set(opened.map((o) => o.ticket.companyId))];
  for (const companyId of companies) {
    const tickets = opened.filter((o) => o.ticket.companyId === companyId).map((o) => o.ticket);
    const given = await repos.tickets.insertNumberedAll(companyId, tickets);
    tickets.forEach((t, i) => numbers.set(t.id, given[i]!));
  }
  return opened.map(({ ticket, events }) => {
    const number = numbers.get(ticket.id)!;
    ticket.number = number;
    for (const event of events) {
      if (event.event === 'conversation.created' && event.data.ticketId === ticket.id) (event.data as Record<string, unknown>).number = number;
    }
    return number;
  });
}

/**
 * The tickets area's side of inbound messages (the messages area's `InboundThreads`): the
 * advisory lock on setor and phone key, rating replies, the ticket join, team auto-assignment of
 * the ticket it opened or reopened, and conversation-scope tag rules tagging the ticket.
 */
export class TicketInboundThreads implements InboundThreads {
  constructor(private readonly ids: IdGenerator) {}

  lockKey(setorId: string, phoneKey: string): string {
    return contactThreadLockKey(setorId, phoneKey);
  }

  async lock(repos: Repositories, setorId: string, phoneKey: string): Promise<void> {
    await (repos as Repositories<TicketRepositories>).tickets.lockContactThread(setorId, phoneKey);
  }

  async lockAll(repos: Repositories, threads: readonly { setorId: string; phoneKey: string }[]): Promise<void> {
    await (repos as Repositories<TicketRepositories>).tickets.lockContactThreads(threads);
  }

  ratingReply(repos: Repositories, message: InboundThreadMessage): Promise<InboundRatingOutcome | null> {
    return recordRatingReply(repos as Repositories<TicketRepositories & ClosingRepositories>, this.ids, {
      setorId: message.setor.id,
      contactId: message.contact.id,
      contactCreated: message.contactCreated === true,
      text: message.text,
      optionId: message.optionId,
      at: message.at,
    });
  }

  async join(repos: Repositories, message: InboundThreadMessage, contactAssistantActive: boolean): Promise<InboundJoinOutcome> {
    const result = await joinInboundTicket(repos as Repositories<TicketRepositories>, this.ids, {
      companyId: message.companyId,
      setor: message.setor,
      contactId: message.contact.id,
      contactAssistantActive,
      conversationId: message.conversationId,
      message: { id: message.messageId, direction: 'inbound', type: 'message', preview: message.preview, at: message.at },
      at: message.at,
      contactCreated: message.contactCreated === true,
      deferOpen: message.deferOpen === true,
      ...(message.active !== undefined ? { active: message.active as Ticket | null, deferSave: message.deferSave === true } : {}),
    });
    const { ticket } = result;
    return {
      ticket: { id: ticket.id, number: ticket.number, status: ticket.status, created: result.created, reopened: result.reopened },
      events: result.events,
      // Only an open ticket of a team without agent can be auto-assigned (autoAssign's own first check).
      needsAssignment: (result.created || result.reopened) && ticket.status === 'open' && ticket.agentId === null && ticket.teamId !== null,
      state: ticket,
      deferred: result.deferred === true,
      ...(result.pendingSave ? { pendingSave: { id: ticket.id, state: result.pendingSave.ticket, expectedVersion: result.pendingSave.expectedVersion } } : {}),
    };
  }

  async findActiveAll(repos: Repositories, pairs: readonly { setorId: string; contactId: string }[]): Promise<Map<string, unknown>> {
    const found = await (repos as Repositories<TicketRepositories>).tickets.findActiveAll(pairs);
    return new Map(found.map((t) => [inboundThreadKey(t.setorId, t.contactId), t]));
  }

  async saveJoined(repos: Repositories, saves: readonly { state: unknown; expectedVersion: number }[]): Promise<void> {
    if (saves.length === 0) return;
    const saved = await (repos as Repositories<TicketRepositories>).tickets.saveAll(saves.map((s) => ({ ticket: s.state as Ticket, expectedVersion: s.expectedVersion })));
    // Changed by another writer since the group read it (an agent's move): the group rolls back and runs alone.
    if (saved.length !== saves.length) throw new Error(`${saves.length - saved.length} ticket(s) of an inbound group changed meanwhile`);
  }

  async insertOpened(repos: Repositories, opened: readonly { state: unknown; events: readonly DomainEvent[] }[]): Promise<number[]> {
    return insertOpenedTickets(repos as Repositories<TicketRepositories>, opened.map((o) => ({ ticket: o.state as Ticket, events: o.events })));
  }

  async assign(repos: Repositories, companyId: string, ticketId: string, at: Date, state?: unknown): Promise<void> {
    const tx = repos as Repositories<AssignmentRepositories>;
    // The ticket this transaction just inserted or saved is locked and as written: it is not read again.
    const given = state as Ticket | undefined;
    const ticket = given && given.id === ticketId && given.companyId === companyId ? given : await tx.tickets.lockById(companyId, ticketId);
    // An open ticket of an auto-assign team without agent goes to a free member (it records conversation.assigned).
    if (ticket) await autoAssign(tx, ticket, at, this.ids);
  }

  async tag(repos: Repositories, companyId: string, ticketId: string, tagIds: readonly string[], at: Date): Promise<string[]> {
    return (repos as Repositories<TicketRepositories>).tickets.addTags(companyId, ticketId, tagIds, at);
  }

  async linkTags(repos: Repositories, companyId: string, links: readonly { ticketId: string; tagId: string }[], at: Date): Promise<void> {
    await (repos as Repositories<TicketRepositories>).tickets.linkTags(companyId, links, at);
  }
}
