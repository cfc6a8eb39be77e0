import { systemActor } from '../shared/domain-event.js';
import { transition } from '../shared/decider.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { InboundRatingOutcome } from '../messages/index.js';
import { RATING_WINDOW_MS, ticketDecider, type Ticket } from './ticket.js';
import type { TicketRepositories } from './ticket-repository.js';
import { queueCsatThanks, type ClosingRepositories } from './ticket-closing.js';
import { MAX_RATING_COMMENT, ratedEvent } from './ticket-ratings.js';

/** A score and comment read from a contact's reply. */
export interface RatingReply {
  score: number;
  comment: string | null;
}

const OPTION = /^csat_([1-5])$/;
/** A digit 1-5 not followed by another digit ("10" is no rating), then separators, then the comment. */
const TEXT = /^\s*([1-5])(?![0-9])[\s\-–—.,;:!)/*]*([\s\S]*)$/;

/**
 * Reads a rating from a reply (conversations.md §3): the option `csat_N` of the rating list, or a
 * text starting with a digit 1-5, the rest (trimmed, at most 500 characters) being its comment.
 * Anything else is no rating (null).
 */
export function parseRatingReply(input: { text: string | null; optionId: string | null }): RatingReply | null {
  const option = input.optionId ? OPTION.exec(input.optionId) : null;
  if (option) return { score: Number(option[1]), comment: null };
  if (input.optionId) return null;
  const text = input.text ? TEXT.exec(input.text) : null;
  if (!text) return null;
  const rest = text[2]!.trim();
  return { score: Number(text[1]), comment: rest === '' ? null : rest.slice(0, MAX_RATING_COMMENT) };
}

/** Whether a closed ticket is waiting for (or may still replace) a rating reply at `at`: requested within the last 24 hours. */
export function acceptsRatingReply(ticket: Pick<Ticket, 'status' | 'rating'>, at: Date): boolean {
  const { status, requestedAt } = ticket.rating;
  if (ticket.status !== 'closed' || (status !== 'requested' && status !== 'rated') || !requestedAt) return false;
  const since = at.getTime() - requestedAt.getTime();
  return since >= 0 && since <= RATING_WINDOW_MS;
}

/** How far back the latest closed ticket is looked for (a request is answered within 24 hours of being made, after its closing). */
const LOOKBACK_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Step 3 of inbound handling: while the setor and contact have no active ticket, a reply to the
 * rating request of their latest closed ticket (within 24 hours of the request) is its rating,
 * recorded through the decider's `rate` (source `reply`): stored on the closed ticket, reopening
 * nothing, `conversation.rated` emitted, and the box's `csat_thanks` queued after the first rating
 * (a job of the closing messages' queue, sent once by the worker). The same rating again changes
 * nothing; another within 24 hours replaces it. Null when the message is no rating reply.
 */
export async function recordRatingReply(
  repos: Repositories<TicketRepositories & ClosingRepositories>,
  ids: IdGenerator,
  input: { setorId: string; contactId: string; text: string | null; optionId: string | null; at: Date; contactCreated?: boolean },
): Promise<InboundRatingOutcome | null> {
  const reply = parseRatingReply(input);
  // A contact created by this transaction has no ticket to rate.
  if (!reply || input.contactCreated === true) return null;
  if (await repos.tickets.findActive(input.setorId, input.contactId)) return null;
  const latest = await repos.tickets.findReopenable(input.setorId, input.contactId, new Date(input.at.getTime() - LOOKBACK_MS));
  if (!latest || !acceptsRatingReply(latest, input.at)) return null;
  const ticket = await repos.tickets.lockById(latest.companyId, latest.id);
  if (!ticket || !acceptsRatingReply(ticket, input.at)) return null;
  const firstRating = ticket.rating.status !== 'rated';
  const { state, events } = transition(ticketDecider, ticket, { type: 'rate', at: input.at, score: reply.score, comment: reply.comment, source: 'reply' });
  if (events.length === 0 || !state) return { ticketId: ticket.id, ticketNumber: ticket.number, changed: false, events: [] };
  const next: Ticket = { ...state, version: ticket.version + 1 };
  await repos.tickets.save(next, ticket.version);
  // One millisecond later, so that the timeline shows the thanks after the reply it answers.
  if (firstRating) await queueCsatThanks(repos, { ticket: next, at: new Date(input.at.getTime() + 1), ids });
  return {
    ticketId: next.id,
    ticketNumber: next.number,
    changed: true,
    events: [ratedEvent(next, ids, input.at, { ...systemActor, source: 'contact' })],
  };
}
