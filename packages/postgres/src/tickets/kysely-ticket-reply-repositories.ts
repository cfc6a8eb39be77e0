import type {
  KeyMode,
  RatedTicket,
  RatingReportQuery,
  RatingReportRepository,
  RatingTotals,
  TicketSend,
  TicketSendKind,
  TicketSendRepository,
  TicketSendStatus,
  TicketTimelineRepository,
  TimelineQuery,
} from '@carteiro/core';
import { isUuid } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { findRecord } from '../shared/records.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import { toMessage } from '../messages/kysely-message-repositories.js';
import type { TicketSendsTable } from './ticket-sends-tables.js';

/** What a save changes, as it is (the charge is written as JSON beside it). */
const SAVED_FIELDS = ['status', 'attempts', 'claimedAt', 'errorCode', 'error', 'sentAt', 'updatedAt'] as const;
/** A new send's fields, as they are (the charge beside them). */
const INSERTED_FIELDS = ['id', 'companyId', 'ticketId', 'setorId', 'kind', 'keyMode', 'createdAt', ...SAVED_FIELDS] as const;
/** The columns read as they are (kind, status and key mode are narrowed beside them). */
const READ_COLUMNS = ['id', 'company_id', 'ticket_id', 'setor_id', 'attempts', 'claimed_at', 'charge', 'error_code', 'error', 'sent_at', 'created_at', 'updated_at'] as const;

function toSend(row: Selectable<TicketSendsTable>): TicketSend {
  return { ...fieldsOf(row, READ_COLUMNS), kind: row.kind as TicketSendKind, status: row.status as TicketSendStatus, keyMode: row.key_mode as KeyMode };
}

const chargeColumn = (send: TicketSend) => (send.charge ? JSON.stringify(send.charge) : null);

export class KyselyTicketSendRepository implements TicketSendRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(send: TicketSend): Promise<void> {
    await this.db
      .insertInto('ticket_sends')
      .values({ ...columnsOf(send, INSERTED_FIELDS), charge: chargeColumn(send) })
      .execute();
  }

  async lockById(id: string): Promise<TicketSend | null> {
    if (!isUuid(id)) return null;
    return findRecord(this.db, 'ticket_sends', id, toSend, 'forUpdate');
  }

  async save(send: TicketSend): Promise<void> {
    await this.db
      .updateTable('ticket_sends')
      .set({ ...columnsOf(send, SAVED_FIELDS), charge: chargeColumn(send) })
      .where('id', '=', send.id)
      .execute();
  }

  async listByTicket(companyId: string, ticketId: string): Promise<TicketSend[]> {
    if (!isUuid(ticketId)) return [];
    const rows = await this.db.selectFrom('ticket_sends').selectAll().where('company_id', '=', companyId).where('ticket_id', '=', ticketId).orderBy('created_at').orderBy('id').execute();
    return rows.map(toSend);
  }

  async listStale(before: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('ticket_sends')
      .select('id')
      .where('status', 'in', ['queued', 'sending'])
      .where('updated_at', '<', before)
      .orderBy('updated_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }
}

/** Timelines by keyset on (created_at, id): the indexes messages_ticket_timeline_idx and messages_conversation_timeline_idx of 0015. */
export class KyselyTicketTimelineRepository implements TicketTimelineRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(query: TimelineQuery): Promise<{ items: ReturnType<typeof toMessage>[]; hasMore: boolean }> {
    const desc = query.order === 'desc';
    let q = this.db.selectFrom('messages').selectAll().where('company_id', '=', query.companyId);
    q = query.ticketId ? q.where('ticket_id', '=', query.ticketId) : q.where('conversation_id', '=', query.conversationId!);
    if (query.after) {
      const { at, id } = query.after;
      q = desc ? q.where(sql<boolean>`(created_at, id) < (${at}::timestamptz, ${id}::uuid)`) : q.where(sql<boolean>`(created_at, id) > (${at}::timestamptz, ${id}::uuid)`);
    }
    const rows = await q
      .orderBy('created_at', desc ? 'desc' : 'asc')
      .orderBy('id', desc ? 'desc' : 'asc')
      .limit(query.limit + 1)
      .execute();
    return { items: rows.slice(0, query.limit).map(toMessage), hasMore: rows.length > query.limit };
  }
}

type Distribution = [number, number, number, number, number];

/** Rating reports over `tickets` (rating columns of 0015): one aggregate, one per agent, one for the latest. */
export class KyselyRatingReportRepository implements RatingReportRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async totals(query: RatingReportQuery, recentLimit: number): Promise<RatingTotals> {
    const base = () => {
      let q = this.db
        .selectFrom('tickets')
        .where('company_id', '=', query.companyId)
        .where(sql<boolean>`coalesce(rating_requested_at, rated_at) >= ${query.from}::timestamptz`)
        .where(sql<boolean>`coalesce(rating_requested_at, rated_at) < ${query.to}::timestamptz`);
      if (query.setorId) q = q.where('setor_id', '=', query.setorId);
      if (query.teamId) q = q.where('rated_team_id', '=', query.teamId);
      if (query.agentId) q = q.where('rated_agent_id', '=', query.agentId);
      return q;
    };
    const scoreCounts = [1, 2, 3, 4, 5].map((score) => sql<number>`count(*) FILTER (WHERE rating_status = 'rated' AND rating_score = ${score})::int`.as(`s${score}`));
    const [summary, agents, recent] = await Promise.all([
      base()
        .select([sql<number>`count(*) FILTER (WHERE rating_requested_at IS NOT NULL)::int`.as('requested'), ...scoreCounts])
        .executeTakeFirstOrThrow(),
      base()
        .where('rating_status', '=', 'rated')
        .where('rated_agent_id', 'is not', null)
        .select(['rated_agent_id', ...scoreCounts])
        .groupBy('rated_agent_id')
        .execute(),
      base()
        .where('rating_status', '=', 'rated')
        .select(['id', 'number', 'setor_id', 'contact_id', 'rated_agent_id', 'rated_team_id', 'rating_score', 'rating_comment', 'rated_at', 'rating_source'])
        .orderBy('rated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(recentLimit)
        .execute(),
    ]);
    const dist = (row: Record<string, unknown>): Distribution => [1, 2, 3, 4, 5].map((s) => Number(row[`s${s}`] ?? 0)) as Distribution;
    return {
      requested: Number(summary.requested),
      distribution: dist(summary as Record<string, unknown>),
      byAgent: agents.map((row) => ({ agentId: row.rated_agent_id!, distribution: dist(row as Record<string, unknown>) })),
      recent: recent.map(
        (row): RatedTicket => ({
          ticketId: row.id,
          number: Number(row.number),
          setorId: row.setor_id,
          contactId: row.contact_id,
          agentId: row.rated_agent_id,
          teamId: row.rated_team_id,
          score: row.rating_score!,
          comment: row.rating_comment,
          ratedAt: row.rated_at!,
          source: row.rating_source,
        }),
      ),
    };
  }
}
