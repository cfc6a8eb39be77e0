import type { Ticket, TicketPriority, TicketStatus } from './ticket.js';

/** Filters of GET /v1/tickets (combined with AND). */
export interface TicketFilter {
  /** Non-empty. */
  statuses: readonly TicketStatus[];
  setorId?: string;
  contactId?: string;
  /** An agent's tickets, or `null`: those without agent. */
  agentId?: string | null;
  teamId?: string;
  priorities?: readonly TicketPriority[];
  tagId?: string;
  /** Changed at or after this instant. */
  updatedSince?: Date;
  /**
   * Digits (at least one, nothing but digits and `+()-. `): the ticket number, or the end of the
   * contact's phone (either ninth-digit form); any other text: part of the contact's name, ignoring case.
   */
  q?: string;
}

/** The two orders of the ticket list. */
export type TicketSort = 'last_activity_desc' | 'updated_asc';

/** Where a page of the ticket list starts: after the row with this sort value and id. */
export interface TicketKeyset {
  at: Date;
  id: string;
}

/** One page request of the ticket list. */
export interface TicketListRequest {
  sort: TicketSort;
  /** `last_activity_desc`: rows before (`last_activity_at`, `id`) descending; `updated_asc`: rows after (`updated_at`, `id`). */
  after: TicketKeyset | null;
  limit: number;
  /** `updated_asc` only: rows with `updated_at` after this instant are withheld (the commit horizon). */
  horizon?: Date;
  /** Answer the page's view parts too (`parts`), as {@link TicketRepository.viewParts} would: read with the page where the store can. */
  withViewParts?: boolean;
}

/** A page of the ticket list: `hasMore` when more rows follow it; `parts` when the request asked for them. */
export interface TicketListPage {
  items: Ticket[];
  hasMore: boolean;
  parts?: Map<string, TicketViewParts>;
}

/** Filters of GET /v1/queue. */
export interface QueueFilter {
  setorId?: string;
  teamId?: string;
  priorities?: readonly TicketPriority[];
}

/** Where a queue page starts: after the row with this rank (see `priorityRank`), wait start (null: last) and id. */
export interface QueueKeyset {
  rank: number;
  waitingSince: Date | null;
  id: string;
}

/** A page of the queue with its totals. */
export interface QueuePage {
  items: Ticket[];
  hasMore: boolean;
  /** Queued tickets matching the filter. */
  total: number;
  /** The earliest `waitingSince` among them; null when none. */
  oldestWaitingSince: Date | null;
  /** How many matching tickets come before the page (positions of the page start at `before + 1`). */
  before: number;
}

/** A link of a ticket to a record of another area (only `crm_opportunity` today). */
export interface TicketLink {
  type: 'crm_opportunity';
  targetId: string;
  linkedAt: Date;
}

/** A ticket's contact as the ticket views show it. */
export interface TicketContact {
  id: string;
  name: string | null;
  phone: string;
  iaAtiva: boolean;
}

/** What a ticket's views show beside the ticket itself: its contact and what its reply window depends on. */
export interface TicketViewParts {
  /** Null when the contact is not one of the company's. */
  contact: TicketContact | null;
  /** Whether the ticket's setor (of the company) is an official one: only there does the 24-hour window apply. */
  official: boolean;
  /** Official setores: when the contact last wrote to the setor (`ConversationWindowRepository.lastInbound`); else null. */
  lastInboundAt: Date | null;
}

/**
 * Stores tickets with their tags and links. Reads are scoped by company (another company's
 * ticket reads as missing); malformed ids read as missing. The database keeps at most one ticket
 * per setor and contact that is not `closed` and one `number` per company.
 */
export interface TicketRepository {
  /**
   * Inserts a new ticket (its `tagIds` are ignored). False when the setor and contact already have
   * an active ticket: nothing is written then (re-read the winner with {@link findActive}).
   */
  insert(ticket: Ticket): Promise<boolean>;
  /** With its tags. */
  findById(companyId: string, id: string): Promise<Ticket | null>;
  /** Like `findById`, the row locked until the transaction ends (`SELECT … FOR UPDATE`). */
  lockById(companyId: string, id: string): Promise<Ticket | null>;
  /** The ticket of the setor and contact that is not closed. */
  findActive(setorId: string, contactId: string): Promise<Ticket | null>;
  /** {@link findActive} of several setor and contact pairs in one read (an inbound group's stored contacts); a pair without one is absent. */
  findActiveAll(pairs: readonly { setorId: string; contactId: string }[]): Promise<Ticket[]>;
  /** The latest closed ticket of the setor and contact closed at or after `since` (reopen window). */
  findReopenable(setorId: string, contactId: string, since: Date): Promise<Ticket | null>;
  /**
   * Writes every field but `number`, `createdAt` and `tagIds` where the stored version is
   * `expectedVersion` (the caller sets `ticket.version` to the next one). False when the version
   * differs or the row is gone (nothing written). Reopening while another ticket of the setor and
   * contact is active throws `TicketActiveError`.
   */
  save(ticket: Ticket, expectedVersion: number): Promise<boolean>;
  /** {@link save} of several tickets in one write (an inbound group's joined tickets); answers the ids written. */
  saveAll(saves: readonly { ticket: Ticket; expectedVersion: number }[]): Promise<string[]>;
  /** The company's next ticket number (1, 2, …); the counter row stays locked until the transaction ends. */
  nextNumber(companyId: string): Promise<number>;
  /**
   * {@link nextNumber} then {@link insert} of `ticket` with that number (its own `number` is ignored), as one write
   * (the inbound path opens tickets per message). The number, or null when the setor and contact already have an
   * active ticket (nothing inserted; the number is spent, as with the two calls).
   */
  insertNumbered(ticket: Ticket): Promise<number | null>;
  /**
   * Tickets of one company inserted in one write, numbered in the order given from the company's next number (an
   * inbound group's tickets for contacts it created). Answers the numbers in that order; a ticket the unique index of
   * active tickets refuses fails the whole write.
   */
  insertNumberedAll(companyId: string, tickets: readonly Ticket[]): Promise<number[]>;
  /**
   * A page of the list in `request.sort` order; `hasMore` when more rows follow the page. With `withViewParts`, also
   * the parts `viewParts` answers for the page's tickets, the contacts read in the page's own statement.
   */
  list(companyId: string, filter: TicketFilter, request: TicketListRequest): Promise<TicketListPage>;
  /**
   * The view parts of each ticket, by ticket id, in at most two round trips whatever the number of tickets (the
   * contacts and setores; the windows when some tickets are on official setores): a list page costs the same few
   * statements at any size.
   */
  viewParts(companyId: string, tickets: readonly Ticket[]): Promise<Map<string, TicketViewParts>>;
  /**
   * Open tickets without agent, by priority rank (urgent first, none last), `waitingSince`
   * (earliest first, none last) and id; a page after `after` with the totals of the whole queue.
   */
  queue(companyId: string, filter: QueueFilter, after: QueueKeyset | null, limit: number): Promise<QueuePage>;
  /** How many tickets that are not closed each agent holds (agents without any: 0). */
  openCountsByAgent(agentIds: readonly string[]): Promise<Record<string, number>>;
  /** The agent's tickets that are not closed, oldest first. */
  listActiveOfAgent(companyId: string, agentId: string): Promise<Ticket[]>;
  /** Snoozed tickets whose `snoozedUntil` is at or before `at`, earliest first. */
  dueSnoozed(at: Date, limit: number): Promise<{ companyId: string; id: string }[]>;
  /** Links the tags (idempotent); answers the ids that were not linked before. */
  addTags(companyId: string, ticketId: string, tagIds: readonly string[], at: Date): Promise<string[]>;
  /** {@link addTags} for several tickets in one write, answering nothing (an inbound group's links to tickets it opened). */
  linkTags(companyId: string, links: readonly { ticketId: string; tagId: string }[], at: Date): Promise<void>;
  /** Unlinks the tags; answers the ids that were linked. */
  removeTags(ticketId: string, tagIds: readonly string[]): Promise<string[]>;
  /** Links the record; false when it was already linked. */
  link(companyId: string, ticketId: string, link: TicketLink): Promise<boolean>;
  /** Unlinks the record; false when it was not linked. */
  unlink(ticketId: string, type: TicketLink['type'], targetId: string): Promise<boolean>;
  /** The ticket's links, oldest first. */
  links(ticketId: string): Promise<TicketLink[]>;
  /** The contact's conversation with the latest activity (any setor): POST /v1/tickets's default setor. */
  latestConversationOf(companyId: string, contactId: string): Promise<{ id: string; setorId: string } | null>;
  /**
   * Serialises inbound handling of one contact on one setor until the transaction ends (an
   * advisory lock on a hash of both; `phoneKey` is the ninth-digit-aware match key).
   */
  lockContactThread(setorId: string, phoneKey: string): Promise<void>;
  /**
   * {@link lockContactThread} for several contacts at once (one round trip), each lock taken in the order of its key
   * ({@link contactThreadLockKey}), so that two transactions locking overlapping sets never wait for each other in a cycle.
   */
  lockContactThreads(threads: readonly { setorId: string; phoneKey: string }[]): Promise<void>;
}
export const TicketRepository = Symbol.for('carteiro.TicketRepository');

/** The tickets area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface TicketRepositories {
  tickets: TicketRepository;
}
