import type { AgentRepositories } from '../agents/index.js';
import type { Clock } from '../shared/clock.js';
import { transition } from '../shared/decider.js';
import type { DomainEvent, EventActor } from '../shared/domain-event.js';
import { ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { ticketDecider, type Ticket } from './ticket.js';
import type { TicketRepositories } from './ticket-repository.js';
import { commitTicket, lockTicket, resolveTicketActor } from './ticket-writes.js';

/** The most a rating comment holds. */
export const MAX_RATING_COMMENT = 500;

/** What a report of ratings covers (GET /v1/ratings). */
export interface RatingReportQuery {
  companyId: string;
  /** Requests (or, for ratings given without a request, ratings) from this instant, inclusive … */
  from: Date;
  /** … to this one, exclusive. */
  to: Date;
  setorId?: string;
  teamId?: string;
  /** The agent credited at closing. */
  agentId?: string;
}

/** One rated ticket of a report. */
export interface RatedTicket {
  ticketId: string;
  number: number;
  setorId: string;
  contactId: string;
  agentId: string | null;
  teamId: string | null;
  score: number;
  comment: string | null;
  ratedAt: Date;
  source: string | null;
}

/** What the database counts for a report (the use case derives rates and averages). */
export interface RatingTotals {
  requested: number;
  /** Count of ratings per score 1-5 (index 0 is score 1). */
  distribution: [number, number, number, number, number];
  /** Per credited agent (rated tickets without an agent are left out): count per score. */
  byAgent: { agentId: string; distribution: [number, number, number, number, number] }[];
  /** The latest ratings, newest first (at most `recentLimit`). */
  recent: RatedTicket[];
}

/**
 * Reads rating reports. A ticket counts when its rating was requested within the period (or, when
 * it was rated without a request, when it was rated within it), for the setor, team and agent
 * credited at closing.
 */
export interface RatingReportRepository {
  totals(query: RatingReportQuery, recentLimit: number): Promise<RatingTotals>;
}
export const RatingReportRepository = Symbol.for('carteiro.RatingReportRepository');

/** The report's repository (see `Repositories`). */
export interface RatingReportRepositories {
  ratingReports: RatingReportRepository;
}

/** The period GET /v1/ratings covers without `from`. */
export const DEFAULT_RATING_PERIOD_DAYS = 30;
/** The longest period a report covers. */
export const MAX_RATING_PERIOD_DAYS = 366;
const DAY_MS = 86_400_000;

/** GET /v1/ratings, domain side. */
export interface RatingReport {
  from: Date;
  to: Date;
  summary: {
    requested: number;
    responded: number;
    /** responded / requested, 0-1 with 4 decimals; null when nothing was requested. */
    responseRate: number | null;
    /** Mean score, 2 decimals; null without ratings. */
    average: number | null;
    /** Share of 4 and 5 among the ratings, 0-100 with 1 decimal; null without ratings. */
    csatPercent: number | null;
    distribution: Record<'1' | '2' | '3' | '4' | '5', number>;
  };
  ranking: { agentId: string; name: string | null; responded: number; average: number | null; csatPercent: number | null }[];
  recent: RatedTicket[];
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

function stats(distribution: readonly number[]) {
  const responded = distribution.reduce((a, b) => a + b, 0);
  const sum = distribution.reduce((a, count, i) => a + count * (i + 1), 0);
  const satisfied = (distribution[3] ?? 0) + (distribution[4] ?? 0);
  return {
    responded,
    average: responded > 0 ? round(sum / responded, 2) : null,
    csatPercent: responded > 0 ? round((satisfied * 100) / responded, 1) : null,
  };
}

/**
 * GET /v1/ratings: summary (requested, responded, response rate, average, CSAT % of 4-5 and the
 * distribution), per-agent ranking (credited agent, by CSAT %, then average, then responses) and the
 * 20 latest ratings, over `from`-`to` (default the last 30 days, at most 366).
 */
export class GetRatingReport {
  constructor(
    private readonly repos: Repositories<RatingReportRepositories & AgentRepositories>,
    private readonly clock: Clock,
  ) {}

  async execute(input: { companyId: string; from?: Date | null; to?: Date | null; setorId?: string; teamId?: string; agentId?: string }): Promise<RatingReport> {
    const to = input.to ?? this.clock.now();
    const from = input.from ?? new Date(to.getTime() - DEFAULT_RATING_PERIOD_DAYS * DAY_MS);
    if (from.getTime() >= to.getTime()) throw new ValidationError('from must be before to', { field: 'from' });
    if (to.getTime() - from.getTime() > MAX_RATING_PERIOD_DAYS * DAY_MS) {
      throw new ValidationError(`The period is at most ${MAX_RATING_PERIOD_DAYS} days`, { field: 'from', max_days: MAX_RATING_PERIOD_DAYS });
    }
    const query: RatingReportQuery = { companyId: input.companyId, from, to };
    if (input.setorId) query.setorId = input.setorId;
    if (input.teamId) query.teamId = input.teamId;
    if (input.agentId) query.agentId = input.agentId;
    const totals = await this.repos.ratingReports.totals(query, 20);
    const overall = stats(totals.distribution);
    const agents = await this.repos.agents.findManyByIds(input.companyId, totals.byAgent.map((a) => a.agentId));
    const names = new Map(agents.map((a) => [a.id, a.name]));
    const ranking = totals.byAgent
      .map((a) => ({ agentId: a.agentId, name: names.get(a.agentId) ?? null, ...stats(a.distribution) }))
      .sort((a, b) => (b.csatPercent ?? -1) - (a.csatPercent ?? -1) || (b.average ?? -1) - (a.average ?? -1) || b.responded - a.responded || a.agentId.localeCompare(b.agentId));
    const [d1, d2, d3, d4, d5] = totals.distribution;
    return {
      from,
      to,
      summary: {
        requested: totals.requested,
        responded: overall.responded,
        responseRate: totals.requested > 0 ? round(Math.min(1, overall.responded / totals.requested), 4) : null,
        average: overall.average,
        csatPercent: overall.csatPercent,
        distribution: { '1': d1, '2': d2, '3': d3, '4': d4, '5': d5 },
      },
      ranking,
      recent: totals.recent,
    };
  }
}

/** The `conversation.rated` event of a rating. */
export function ratedEvent(ticket: Ticket, ids: IdGenerator, at: Date, actor: EventActor): DomainEvent {
  return {
    id: ids.newId(),
    event: 'conversation.rated',
    companyId: ticket.companyId,
    setorId: ticket.setorId,
    occurredAt: at,
    data: {
      conversationId: ticket.conversationId,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      agentId: ticket.rating.agentId,
      teamId: ticket.rating.teamId,
      score: ticket.rating.score,
      comment: ticket.rating.comment,
      ratedAt: ticket.rating.ratedAt?.toISOString() ?? null,
      source: ticket.rating.source,
    },
    actor,
  };
}

/**
 * POST /v1/tickets/:id/rating: a rating collected elsewhere (`source: api`) on a closed ticket,
 * by the rules of §3 (the decider's `rate`): the same rating again changes nothing; another within
 * 24 hours of the first replaces it; later 409 CONFLICT. Emits `conversation.rated` when it changed.
 */
export class RateTicket {
  constructor(
    private readonly uow: UnitOfWork<TicketRepositories & AgentRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: { companyId: string; ticketId: string; score: number; comment?: string | null; actorUserId?: string | null; ifMatch?: number }): Promise<{ ticket: Ticket; changed: boolean }> {
    const comment = input.comment?.trim() ? input.comment.trim() : null;
    if (comment && comment.length > MAX_RATING_COMMENT) throw new ValidationError(`comment must be at most ${MAX_RATING_COMMENT} characters`, { field: 'comment', max: MAX_RATING_COMMENT });
    return this.uow.transaction(async (repos) => {
      const actor = await resolveTicketActor(repos, input.companyId, input.actorUserId);
      const ticket = await lockTicket(repos, input.companyId, input.ticketId, input.ifMatch);
      const at = this.clock.now();
      const result = await commitTicket(repos, ticket, { type: 'rate', at, score: input.score, comment, source: 'api' }, this.ids, actor);
      if (result.changed) await repos.events.record([ratedEvent(result.ticket, this.ids, at, actor)]);
      return { ticket: result.ticket, changed: result.changed };
    });
  }
}

/**
 * The rating-expiry job (24 hours after a request): an unanswered request becomes `expired`
 * (the decider's `expireRating`; answered or replaced requests stay as they are). Idempotent.
 */
export class ExpireTicketRating {
  constructor(
    private readonly uow: UnitOfWork<TicketRepositories>,
    private readonly clock: Clock,
  ) {}

  async execute(companyId: string, ticketId: string): Promise<boolean> {
    return this.uow.transaction(async (repos) => {
      const ticket = await repos.tickets.lockById(companyId, ticketId);
      if (!ticket) return false;
      const { state, events } = transition(ticketDecider, ticket, { type: 'expireRating', at: this.clock.now() });
      if (events.length === 0 || !state) return false;
      await repos.tickets.save({ ...state, version: ticket.version + 1 }, ticket.version);
      return true;
    });
  }
}
