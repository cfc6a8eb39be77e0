import type {
  QueueFilter,
  QueueKeyset,
  QueuePage,
  Ticket,
  TicketFilter,
  TicketLastMessage,
  TicketLink,
  TicketListRequest,
  TicketPriority,
  TicketRepositories,
  TicketRepository,
  TicketSource,
  TicketViewParts,
  TicketStatus,
  RatingStatus,
} from '@carteiro/core';
import { TicketActiveError, contactThreadLockKey, conversationPhoneKey, isUuid, priorityRank } from '@carteiro/core';
import { sql, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Database } from '../shared/database.js';
import type { TicketsTable } from './tickets-tables.js';

type TicketRow = Selectable<TicketsTable> & { tag_ids: string[] | null };

function toLastMessage(value: unknown): TicketLastMessage | null {
  if (!value) return null;
  const v = value as Record<string, unknown>;
  return { id: String(v.id), direction: v.direction as 'inbound' | 'outbound', type: String(v.type), preview: (v.preview as string | null) ?? null, at: new Date(v.at as string) };
}

function toTicket(row: TicketRow): Ticket {
  return {
    id: row.id,
    companyId: row.company_id,
    number: Number(row.number),
    status: row.status as TicketStatus,
    priority: row.priority as TicketPriority | null,
    setorId: row.setor_id,
    contactId: row.contact_id,
    conversationId: row.conversation_id,
    agentId: row.agent_id,
    teamId: row.team_id,
    snoozedUntil: row.snoozed_until,
    waitingSince: row.waiting_since,
    lastMessage: toLastMessage(row.last_message),
    lastActivityAt: row.last_activity_at,
    source: row.source as TicketSource,
    firstResponseAt: row.first_response_at,
    closedAt: row.closed_at,
    closeReason: row.close_reason,
    rating: {
      status: row.rating_status as RatingStatus,
      requestedAt: row.rating_requested_at,
      score: row.rating_score,
      comment: row.rating_comment,
      ratedAt: row.rated_at,
      source: row.rating_source,
      agentId: row.rated_agent_id,
      teamId: row.rated_team_id,
    },
    handoff: row.handoff_summary !== null && row.handoff_at !== null ? { summary: row.handoff_summary, at: row.handoff_at } : null,
    tagIds: [...(row.tag_ids ?? [])].sort(),
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(t: Ticket) {
  return {
    id: t.id,
    company_id: t.companyId,
    number: t.number,
    status: t.status,
    priority: t.priority,
    priority_rank: priorityRank(t.priority),
    setor_id: t.setorId,
    contact_id: t.contactId,
    conversation_id: t.conversationId,
    agent_id: t.agentId,
    team_id: t.teamId,
    snoozed_until: t.snoozedUntil,
    waiting_since: t.waitingSince,
    last_message: t.lastMessage ? JSON.stringify({ ...t.lastMessage, at: t.lastMessage.at.toISOString() }) : null,
    last_activity_at: t.lastActivityAt,
    source: t.source,
    first_response_at: t.firstResponseAt,
    closed_at: t.closedAt,
    close_reason: t.closeReason,
    rating_status: t.rating.status,
    rating_requested_at: t.rating.requestedAt,
    rating_score: t.rating.score,
    rating_comment: t.rating.comment,
    rated_at: t.rating.ratedAt,
    rating_source: t.rating.source,
    rated_agent_id: t.rating.agentId,
    rated_team_id: t.rating.teamId,
    handoff_summary: t.handoff?.summary ?? null,
    handoff_at: t.handoff?.at ?? null,
    version: t.version,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
  };
}

/**
 * Each column of {@link toRow} with its type, for the statements that take many tickets as one array per column (an
 * inbound group's inserts and saves): one text whatever the count (prepared once), instead of a multi-row VALUES of
 * ~30 parameters a ticket that Kysely compiles and PostgreSQL plans for every count. `satisfies` fails the build when
 * toRow gains a column this list lacks.
 */
const TICKET_COLUMN_TYPES = {
  id: 'uuid', company_id: 'uuid', number: 'bigint', status: 'text', priority: 'text', priority_rank: 'smallint', setor_id: 'uuid',
  contact_id: 'uuid', conversation_id: 'uuid', agent_id: 'uuid', team_id: 'uuid', snoozed_until: 'timestamptz', waiting_since: 'timestamptz',
  last_message: 'jsonb', last_activity_at: 'timestamptz', source: 'text', first_response_at: 'timestamptz', closed_at: 'timestamptz',
  close_reason: 'text', rating_status: 'text', rating_requested_at: 'timestamptz', rating_score: 'smallint', rating_comment: 'text',
  rated_at: 'timestamptz', rating_source: 'text', rated_agent_id: 'uuid', rated_team_id: 'uuid', handoff_summary: 'text',
  handoff_at: 'timestamptz', version: 'integer', created_at: 'timestamptz', updated_at: 'timestamptz',
} as const satisfies Record<keyof ReturnType<typeof toRow>, string>;
const TICKET_COLUMNS = Object.keys(TICKET_COLUMN_TYPES) as (keyof typeof TICKET_COLUMN_TYPES)[];

/** `unnest(<one array per column>) WITH ORDINALITY AS x(<columns>, ord)` of `tickets` (jsonb travels as text). */
function ticketsUnnest(tickets: readonly Ticket[], extra: { name: string; type: string; values: unknown[] }[] = []) {
  const rows = tickets.map(toRow);
  const arrays = TICKET_COLUMNS.map((column) => {
    const type = TICKET_COLUMN_TYPES[column];
    return sql`${rows.map((r) => r[column])}::${sql.raw(type === 'jsonb' ? 'text' : type)}[]`;
  });
  for (const e of extra) arrays.push(sql`${e.values}::${sql.raw(e.type)}[]`);
  const names = [...TICKET_COLUMNS, ...extra.map((e) => e.name), 'ord'].join(', ');
  return sql`unnest(${sql.join(arrays)}) WITH ORDINALITY AS x(${sql.raw(names)})`;
}

/** A column of `x` (ticketsUnnest) as the table's type. */
const fromX = (column: keyof typeof TICKET_COLUMN_TYPES) => (TICKET_COLUMN_TYPES[column] === 'jsonb' ? `x.${column}::jsonb` : `x.${column}`);

const isUniqueViolation = (error: unknown, constraint: string) =>
  (error as { code?: string }).code === '23505' && (error as { constraint?: string }).constraint === constraint;

/** Whether `q` of the ticket list is read as digits (number or phone) rather than a name. */
const isDigitsQuery = (q: string) => /^[\d\s()+.\-]+$/.test(q) && /\d/.test(q);

/**
 * A page's LIMIT written into the statement's text rather than sent as a parameter. The list goes as a named prepared
 * statement (db.ts), and PostgreSQL plans such a statement once (a generic plan) only when that plan looks no dearer than
 * the ones planned for each call's values; a generic plan must guess a `LIMIT $n` (a tenth of the rows), so the ordered
 * index scan of a 26-row page looked hundreds of times dearer and every list call was planned again (custom_plans
 * only in pg_prepared_statements: about 0.2 ms of PostgreSQL's CPU a call, half the statement's cost). Pages are 1-101
 * rows, so this adds a bounded number of texts.
 */
function planCachedLimit(limit: number) {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`a list limit must be a positive integer, not ${limit}`);
  return sql.lit(limit);
}

/**
 * The start of every ticket read: the row and its tag ids (an ARRAY subquery of uuids: about 0.1 ms of PostgreSQL's
 * CPU less a 25-ticket page than array_agg of texts).
 */
function ticketSelect(db: Kysely<Database>) {
  return db
    .selectFrom('tickets as t')
    .selectAll('t')
    .select(sql<string[] | null>`ARRAY(SELECT tt.tag_id FROM ticket_tags tt WHERE tt.ticket_id = t.id)`.as('tag_ids'));
}

export class KyselyTicketRepository implements TicketRepository {
  /** Kysely's builders are immutable: the common start is built once per repository, not per read. */
  private base: ReturnType<typeof ticketSelect> | null = null;

  constructor(private readonly db: Kysely<Database>) {}

  private select() {
    return (this.base ??= ticketSelect(this.db));
  }

  async insert(ticket: Ticket): Promise<boolean> {
    const inserted = await this.db
      .insertInto('tickets')
      .values(toRow(ticket))
      .onConflict((oc) => oc.columns(['setor_id', 'contact_id']).where('status', '<>', 'closed').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async insertNumbered(ticket: Ticket): Promise<number | null> {
    // nextNumber's upsert as a data-modifying CTE; the ticket takes its number from it.
    const inserted = await this.db
      .with('counter', (db) =>
        db
          .insertInto('ticket_counters')
          .values({ company_id: ticket.companyId, last_number: 1 })
          .onConflict((oc) => oc.column('company_id').doUpdateSet({ last_number: sql`ticket_counters.last_number + 1` }))
          .returning('last_number'),
      )
      .insertInto('tickets')
      .values({ ...toRow(ticket), number: sql<number>`(SELECT last_number FROM counter)` })
      .onConflict((oc) => oc.columns(['setor_id', 'contact_id']).where('status', '<>', 'closed').doNothing())
      .returning('number')
      .executeTakeFirst();
    return inserted === undefined ? null : Number(inserted.number);
  }

  async insertNumberedAll(companyId: string, tickets: readonly Ticket[]): Promise<number[]> {
    const count = tickets.length;
    if (count === 0) return [];
    // insertNumbered's counter upsert taking `count` numbers at once; the i-th ticket (ord i) takes the i-th of them.
    const columns = TICKET_COLUMNS.filter((c) => c !== 'number');
    const { rows } = await sql<{ id: string; number: string | number }>`
      WITH counter AS (
        INSERT INTO ticket_counters (company_id, last_number) VALUES (${companyId}::uuid, ${count}::bigint)
        ON CONFLICT (company_id) DO UPDATE SET last_number = ticket_counters.last_number + excluded.last_number
        RETURNING last_number
      )
      INSERT INTO tickets (number, ${sql.raw(columns.join(', '))})
      SELECT (SELECT last_number FROM counter) - ${count}::bigint + x.ord, ${sql.raw(columns.map(fromX).join(', '))}
      FROM ${ticketsUnnest(tickets)}
      ORDER BY x.ord
      RETURNING id, number`.execute(this.db);
    const numbers = new Map(rows.map((r) => [r.id, Number(r.number)]));
    return tickets.map((t) => numbers.get(t.id)!);
  }

  async findActiveAll(pairs: readonly { setorId: string; contactId: string }[]): Promise<Ticket[]> {
    if (pairs.length === 0) return [];
    const rows = await this.select()
      .where(sql<SqlBool>`(t.setor_id, t.contact_id) IN (SELECT * FROM unnest(${pairs.map((p) => p.setorId)}::uuid[], ${pairs.map((p) => p.contactId)}::uuid[]))`)
      .where('t.status', '<>', 'closed')
      .execute();
    return rows.map(toTicket);
  }

  async saveAll(saves: readonly { ticket: Ticket; expectedVersion: number }[]): Promise<string[]> {
    if (saves.length === 0) return [];
    // save's update for every ticket in one statement: each row where its version is the one expected.
    const columns = TICKET_COLUMNS.filter((c) => c !== 'id' && c !== 'number' && c !== 'created_at');
    try {
      const { rows } = await sql<{ id: string }>`
        UPDATE tickets AS t SET (${sql.raw(columns.join(', '))}) = (${sql.raw(columns.map(fromX).join(', '))})
        FROM ${ticketsUnnest(saves.map((s) => s.ticket), [{ name: 'expected_version', type: 'integer', values: saves.map((s) => s.expectedVersion) }])}
        WHERE t.id = x.id AND t.version = x.expected_version
        RETURNING t.id`.execute(this.db);
      return rows.map((r) => r.id);
    } catch (error) {
      if (isUniqueViolation(error, 'tickets_one_active_idx')) throw new TicketActiveError(null);
      throw error;
    }
  }

  async findById(companyId: string, id: string) {
    if (!isUuid(id)) return null;
    const row = await this.select().where('t.id', '=', id).where('t.company_id', '=', companyId).executeTakeFirst();
    return row ? toTicket(row) : null;
  }

  async lockById(companyId: string, id: string) {
    if (!isUuid(id)) return null;
    const row = await this.select().where('t.id', '=', id).where('t.company_id', '=', companyId).forUpdate('t').executeTakeFirst();
    return row ? toTicket(row) : null;
  }

  async findActive(setorId: string, contactId: string) {
    const row = await this.select().where('t.setor_id', '=', setorId).where('t.contact_id', '=', contactId).where('t.status', '<>', 'closed').executeTakeFirst();
    return row ? toTicket(row) : null;
  }

  async findReopenable(setorId: string, contactId: string, since: Date) {
    const row = await this.select()
      .where('t.contact_id', '=', contactId)
      .where('t.setor_id', '=', setorId)
      .where('t.status', '=', 'closed')
      .where('t.closed_at', '>=', since)
      .orderBy('t.closed_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toTicket(row) : null;
  }

  async save(ticket: Ticket, expectedVersion: number): Promise<boolean> {
    const { id, number: _n, created_at: _c, ...rest } = toRow(ticket);
    try {
      const result = await this.db.updateTable('tickets').set(rest).where('id', '=', id).where('version', '=', expectedVersion).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    } catch (error) {
      if (isUniqueViolation(error, 'tickets_one_active_idx')) throw new TicketActiveError(null);
      throw error;
    }
  }

  async nextNumber(companyId: string): Promise<number> {
    const row = await this.db
      .insertInto('ticket_counters')
      .values({ company_id: companyId, last_number: 1 })
      .onConflict((oc) => oc.column('company_id').doUpdateSet({ last_number: sql`ticket_counters.last_number + 1` }))
      .returning('last_number')
      .executeTakeFirstOrThrow();
    return Number(row.last_number);
  }

  async list(companyId: string, filter: TicketFilter, request: TicketListRequest) {
    let query = this.select().where('t.company_id', '=', companyId).where('t.status', 'in', [...filter.statuses]);
    // Said outright, so that the planner takes the partial index of active tickets (0020).
    if (!filter.statuses.includes('closed')) query = query.where('t.status', '<>', 'closed');
    if (filter.setorId) query = query.where('t.setor_id', '=', filter.setorId);
    if (filter.contactId) query = query.where('t.contact_id', '=', filter.contactId);
    if (filter.agentId === null) query = query.where('t.agent_id', 'is', null);
    else if (filter.agentId !== undefined) query = query.where('t.agent_id', '=', filter.agentId);
    if (filter.teamId) query = query.where('t.team_id', '=', filter.teamId);
    if (filter.priorities) query = query.where('t.priority', 'in', [...filter.priorities]);
    if (filter.tagId) {
      const tagId = filter.tagId;
      query = query.where(({ exists, selectFrom }) =>
        exists(selectFrom('ticket_tags as tg').select('tg.ticket_id').whereRef('tg.ticket_id', '=', 't.id').where('tg.tag_id', '=', tagId)),
      );
    }
    if (filter.updatedSince) query = query.where('t.updated_at', '>=', filter.updatedSince);
    if (filter.q) {
      const q = filter.q;
      // The matching contacts first (their indexes of 0007: reversed digits, name trigrams), then their tickets.
      if (isDigitsQuery(q)) {
        const digits = q.replace(/\D/g, '');
        const asNumber = digits.length <= 15 ? Number(digits) : null;
        const reversed = `${[...digits].reverse().join('')}%`;
        const byPhone = this.db
          .selectFrom('contacts as c')
          .select('c.id')
          .where('c.company_id', '=', companyId)
          .where((eb) => eb.or([eb(sql`reverse(ltrim(c.phone, '+'))`, 'like', reversed), eb(sql`reverse(ltrim(c.phone_key, '+'))`, 'like', reversed)]));
        query = query.where((eb) => eb.or([...(asNumber !== null ? [eb('t.number', '=', asNumber)] : []), eb('t.contact_id', 'in', byPhone)]));
      } else {
        const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where('t.contact_id', 'in', this.db.selectFrom('contacts as c').select('c.id').where('c.company_id', '=', companyId).where(sql`lower(c.name)`, 'like', pattern));
      }
    }
    if (request.sort === 'updated_asc') {
      if (request.after) query = query.where(sql<SqlBool>`(t.updated_at, t.id) > (${request.after.at}::timestamptz, ${request.after.id}::uuid)`);
      if (request.horizon) query = query.where('t.updated_at', '<=', request.horizon);
      query = query.orderBy('t.updated_at', 'asc').orderBy('t.id', 'asc');
    } else {
      if (request.after) query = query.where(sql<SqlBool>`(t.last_activity_at, t.id) < (${request.after.at}::timestamptz, ${request.after.id}::uuid)`);
      query = query.orderBy('t.last_activity_at', 'desc').orderBy('t.id', 'desc');
    }
    if (!request.withViewParts) {
      const rows = await query.limit(planCachedLimit(request.limit + 1)).execute();
      return { items: rows.slice(0, request.limit).map(toTicket), hasMore: rows.length > request.limit };
    }
    // The page's contacts and official setores in the page's own statement (a primary-key probe per row of the page).
    const rows = await query
      .leftJoin('contacts as vc', (j) => j.onRef('vc.id', '=', 't.contact_id').on('vc.company_id', '=', companyId))
      .leftJoin('setores as vs', (j) => j.onRef('vs.id', '=', 't.setor_id').on('vs.company_id', '=', companyId).on('vs.channel_type', '=', 'official'))
      .select(['vc.id as vp_contact_id', 'vc.name as vp_contact_name', 'vc.phone as vp_contact_phone', 'vc.ia_ativa as vp_contact_ia', 'vs.id as vp_official_setor_id'])
      .limit(planCachedLimit(request.limit + 1))
      .execute();
    const page = rows.slice(0, request.limit);
    const items = page.map(toTicket);
    const contacts = new Map<string, TicketViewParts['contact']>();
    const official = new Set<string>();
    for (const r of page) {
      if (r.vp_contact_id !== null) contacts.set(r.vp_contact_id, { id: r.vp_contact_id, name: r.vp_contact_name, phone: r.vp_contact_phone!, iaAtiva: r.vp_contact_ia! });
      if (r.vp_official_setor_id !== null) official.add(r.vp_official_setor_id);
    }
    return { items, hasMore: rows.length > request.limit, parts: await this.partsOf(items, contacts, official) };
  }

  async viewParts(companyId: string, tickets: readonly Ticket[]) {
    if (tickets.length === 0) return new Map<string, TicketViewParts>();
    const contactIds = [...new Set(tickets.map((t) => t.contactId))].filter(isUuid);
    const setorIds = [...new Set(tickets.map((t) => t.setorId))].filter(isUuid);
    // The page's contacts and which of its setores are official, in one statement: plain `= ANY` reads by primary
    // key (joins over an unnest of the page cost PostgreSQL three times as much).
    const { rows } = await sql<{ id: string | null; name: string | null; phone: string | null; ia_ativa: boolean | null; official_setor_id: string | null }>`
      SELECT c.id, c.name, c.phone, c.ia_ativa, NULL::uuid AS official_setor_id
      FROM contacts c WHERE c.company_id = ${companyId}::uuid AND c.id = ANY(${contactIds}::uuid[])
      UNION ALL
      SELECT NULL, NULL, NULL, NULL, s.id
      FROM setores s WHERE s.company_id = ${companyId}::uuid AND s.id = ANY(${setorIds}::uuid[]) AND s.channel_type = 'official'`.execute(this.db);
    const contacts = new Map<string, TicketViewParts['contact']>();
    const official = new Set<string>();
    for (const r of rows) {
      if (r.official_setor_id !== null) official.add(r.official_setor_id);
      else if (r.id !== null) contacts.set(r.id, { id: r.id, name: r.name, phone: r.phone!, iaAtiva: r.ia_ativa! });
    }
    return this.partsOf(tickets, contacts, official);
  }

  /** The view parts of tickets from their contacts and official setores, with the windows of those on official ones. */
  private async partsOf(tickets: readonly Ticket[], contacts: ReadonlyMap<string, TicketViewParts['contact']>, official: ReadonlySet<string>) {
    const parts = new Map<string, TicketViewParts>();
    // Windows matter on official setores only: a second statement only when the page has tickets there.
    const windows = new Map<string, Date>();
    const wanted = tickets.flatMap((t) => {
      const contact = contacts.get(t.contactId);
      return official.has(t.setorId) && contact ? [{ setorId: t.setorId, phoneKey: conversationPhoneKey(contact.phone) }] : [];
    });
    if (wanted.length > 0) {
      const found = await this.db
        .selectFrom('conversation_windows')
        .select(['setor_id', 'phone_key', 'last_inbound_at'])
        .where('setor_id', '=', sql<string>`ANY(${[...new Set(wanted.map((w) => w.setorId))]}::uuid[])`)
        .where('phone_key', '=', sql<string>`ANY(${[...new Set(wanted.map((w) => w.phoneKey))]}::text[])`)
        .execute();
      for (const w of found) windows.set(`${w.setor_id}|${w.phone_key}`, w.last_inbound_at);
    }
    for (const t of tickets) {
      const contact = contacts.get(t.contactId) ?? null;
      const isOfficial = official.has(t.setorId);
      const last = isOfficial && contact ? windows.get(`${t.setorId}|${conversationPhoneKey(contact.phone)}`) : undefined;
      parts.set(t.id, { contact, official: isOfficial, lastInboundAt: last ?? null });
    }
    return parts;
  }

  async queue(companyId: string, filter: QueueFilter, after: QueueKeyset | null, limit: number): Promise<QueuePage> {
    const conditions = (eb: { and: (list: Expression<SqlBool>[]) => Expression<SqlBool> }) => {
      const list: Expression<SqlBool>[] = [
        sql<SqlBool>`t.company_id = ${companyId}`,
        sql<SqlBool>`t.status = 'open'`,
        sql<SqlBool>`t.agent_id IS NULL`,
      ];
      if (filter.setorId) list.push(sql<SqlBool>`t.setor_id = ${filter.setorId}`);
      if (filter.teamId) list.push(sql<SqlBool>`t.team_id = ${filter.teamId}`);
      if (filter.priorities) list.push(sql<SqlBool>`t.priority = ANY(${[...filter.priorities]}::text[])`);
      return eb.and(list);
    };
    // Null waits sort last: compared as 'infinity'.
    const key = sql`(t.priority_rank, coalesce(t.waiting_since, 'infinity'::timestamptz), t.id)`;
    const afterKey = after ? sql`(${after.rank}::smallint, coalesce(${after.waitingSince}::timestamptz, 'infinity'::timestamptz), ${after.id}::uuid)` : null;
    let page = this.select().where(conditions);
    if (afterKey) page = page.where(sql<SqlBool>`${key} > ${afterKey}`);
    const rows = await page
      .orderBy('t.priority_rank')
      .orderBy(sql`coalesce(t.waiting_since, 'infinity'::timestamptz)`)
      .orderBy('t.id')
      .limit(planCachedLimit(limit + 1))
      .execute();
    const totals = await this.db
      .selectFrom('tickets as t')
      .where(conditions)
      .select([
        sql<number>`count(*)::int`.as('total'),
        sql<Date | null>`min(t.waiting_since)`.as('oldest'),
        (afterKey ? sql<number>`(count(*) FILTER (WHERE ${key} <= ${afterKey}))::int` : sql<number>`0`).as('before'),
      ])
      .executeTakeFirstOrThrow();
    return {
      items: rows.slice(0, limit).map(toTicket),
      hasMore: rows.length > limit,
      total: Number(totals.total),
      oldestWaitingSince: totals.oldest ? new Date(totals.oldest) : null,
      before: Number(totals.before),
    };
  }

  async openCountsByAgent(agentIds: readonly string[]) {
    const counts: Record<string, number> = Object.fromEntries(agentIds.map((id) => [id, 0]));
    if (agentIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('tickets')
      .select(['agent_id', sql<number>`count(*)::int`.as('n')])
      .where('agent_id', 'in', [...agentIds])
      .where('status', '<>', 'closed')
      .groupBy('agent_id')
      .execute();
    for (const row of rows) if (row.agent_id) counts[row.agent_id] = Number(row.n);
    return counts;
  }

  async listActiveOfAgent(companyId: string, agentId: string) {
    if (!isUuid(agentId)) return [];
    const rows = await this.select()
      .where('t.company_id', '=', companyId)
      .where('t.agent_id', '=', agentId)
      .where('t.status', '<>', 'closed')
      .orderBy('t.created_at')
      .orderBy('t.id')
      .execute();
    return rows.map(toTicket);
  }

  async dueSnoozed(at: Date, limit: number) {
    const rows = await this.db
      .selectFrom('tickets')
      .select(['company_id', 'id'])
      .where('status', '=', 'snoozed')
      .where('snoozed_until', 'is not', null)
      .where('snoozed_until', '<=', at)
      .orderBy('snoozed_until')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ companyId: r.company_id, id: r.id }));
  }

  async addTags(companyId: string, ticketId: string, tagIds: readonly string[], at: Date) {
    const unique = [...new Set(tagIds)];
    if (unique.length === 0) return [];
    // One text whatever the count (a prepared statement; the inbound rules tag a joined ticket per message).
    // FOR KEY SHARE: a tag deleted meanwhile is skipped (the locking read waits for the delete and drops the row)
    // instead of failing the foreign key; a tag read here cannot be deleted before this transaction ends.
    const { rows } = await sql<{ tag_id: string }>`
      INSERT INTO ticket_tags (ticket_id, tag_id, company_id, created_at)
      SELECT ${ticketId}::uuid, t.id, ${companyId}::uuid, ${at}::timestamptz FROM tags t WHERE t.id = ANY(${unique}::uuid[]) FOR KEY SHARE
      ON CONFLICT (ticket_id, tag_id) DO NOTHING
      RETURNING tag_id`.execute(this.db);
    const added = new Set(rows.map((r) => r.tag_id));
    return unique.filter((id) => added.has(id));
  }

  async linkTags(companyId: string, links: readonly { ticketId: string; tagId: string }[], at: Date) {
    if (links.length === 0) return;
    // One text whatever the count (a prepared statement; an inbound group's links). A tag deleted meanwhile is
    // skipped, as in addTags.
    await sql`
      INSERT INTO ticket_tags (ticket_id, tag_id, company_id, created_at)
      SELECT x.ticket_id, t.id, ${companyId}::uuid, ${at}::timestamptz
      FROM unnest(${links.map((l) => l.ticketId)}::uuid[], ${links.map((l) => l.tagId)}::uuid[]) AS x(ticket_id, tag_id)
      JOIN tags t ON t.id = x.tag_id
      FOR KEY SHARE OF t
      ON CONFLICT (ticket_id, tag_id) DO NOTHING`.execute(this.db);
  }

  async removeTags(ticketId: string, tagIds: readonly string[]) {
    const unique = [...new Set(tagIds)];
    if (unique.length === 0) return [];
    const rows = await this.db.deleteFrom('ticket_tags').where('ticket_id', '=', ticketId).where('tag_id', 'in', unique).returning('tag_id').execute();
    const removed = new Set(rows.map((r) => r.tag_id));
    return unique.filter((id) => removed.has(id));
  }

  async link(companyId: string, ticketId: string, link: TicketLink) {
    const row = await this.db
      .insertInto('ticket_links')
      .values({ ticket_id: ticketId, type: link.type, target_id: link.targetId, company_id: companyId, linked_at: link.linkedAt })
      .onConflict((oc) => oc.columns(['ticket_id', 'type', 'target_id']).doNothing())
      .returning('ticket_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async unlink(ticketId: string, type: TicketLink['type'], targetId: string) {
    if (!isUuid(targetId)) return false;
    const result = await this.db.deleteFrom('ticket_links').where('ticket_id', '=', ticketId).where('type', '=', type).where('target_id', '=', targetId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async links(ticketId: string) {
    const rows = await this.db.selectFrom('ticket_links').selectAll().where('ticket_id', '=', ticketId).orderBy('linked_at').orderBy('target_id').execute();
    return rows.map((r) => ({ type: r.type as TicketLink['type'], targetId: r.target_id, linkedAt: r.linked_at }));
  }

  async latestConversationOf(companyId: string, contactId: string) {
    if (!isUuid(contactId)) return null;
    const row = await this.db
      .selectFrom('conversations')
      .select(['id', 'setor_id'])
      .where('company_id', '=', companyId)
      .where('contact_id', '=', contactId)
      .orderBy(sql`greatest(coalesce(last_inbound_at, '-infinity'), coalesce(last_outbound_at, '-infinity'), created_at)`, 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { id: row.id, setorId: row.setor_id } : null;
  }

  async lockContactThread(setorId: string, phoneKey: string) {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${contactThreadLockKey(setorId, phoneKey)}, 0))`.execute(this.db);
  }

  async lockContactThreads(threads: readonly { setorId: string; phoneKey: string }[]) {
    const keys = [...new Set(threads.map((t) => contactThreadLockKey(t.setorId, t.phoneKey)))].sort();
    if (keys.length === 0) return;
    // unnest yields the keys in array order, so the locks are taken in that (sorted) order.
    await sql`SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0))) FROM unnest(${keys}::text[]) AS k`.execute(this.db);
  }
}

/** The tickets area's repositories over one connection or transaction. */
export function kyselyTicketRepositories(db: Kysely<Database>): TicketRepositories {
  return { tickets: new KyselyTicketRepository(db) };
}
