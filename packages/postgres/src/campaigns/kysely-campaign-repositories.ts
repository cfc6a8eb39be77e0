import type {
  Campaign,
  CampaignContent,
  CampaignMessage,
  CampaignMessageStatus,
  CampaignRepository,
  CampaignStatus,
  CampaignTotals,
  DispatchLane,
  DispatchLaneRepository,
  IdempotencyRecord,
  IdempotencyRepository,
  MessageChange,
  MessageFilter,
  PageRequest,
  Reassignment,
  SendFailureCode,
  SkipReason,
} from '@carteiro/core';
import { isUuid, type GroupedCalls } from '@carteiro/core';
import DataLoader from 'dataloader';
import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../shared/database.js';
import { findRecord } from '../shared/records.js';
import { groupedOn } from '../shared/grouped-statements.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { CampaignMessagesTable, CampaignsTable, DispatchLanesTable, IdempotencyKeysTable } from './campaigns-tables.js';

/**
 * A PostgreSQL array literal, every element quoted and escaped (NULL for null): one text
 * parameter per column keeps a 10,000-row unnest cheap to encode and to parse.
 */
export function pgArray(values: readonly (string | number | boolean | null)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    if (v === null || v === undefined) {
      parts[i] = 'NULL';
      continue;
    }
    const text = typeof v === 'string' ? v : String(v);
    parts[i] = NEEDS_ESCAPE.test(text) ? `"${text.replace(ESCAPED, '\\$&')}"` : `"${text}"`;
  }
  return `{${parts.join(',')}}`;
}
const NEEDS_ESCAPE = /[\\"]/;
const ESCAPED = /[\\"]/g;

/**
 * The next claimable messages of a setor: oldest running campaign first, then request order (`ord`).
 * `lock`: rows another transaction holds are skipped and the rest locked (a claim); without it a plain read.
 */
function nextPending(setorId: string, limit: number, now: Date, lock: boolean) {
  return sql`
    SELECT m.id, row_number() OVER (ORDER BY c.created_at, c.id, m.seq) AS ord FROM campaigns c
    CROSS JOIN LATERAL (
      SELECT m.id, m.seq FROM campaign_messages m
      WHERE m.setor_id = ${setorId}::uuid AND m.campaign_id = c.id AND m.status = 'pendente'
        AND (m.not_before IS NULL OR m.not_before <= ${now}::timestamptz)
      ORDER BY m.seq
      LIMIT ${limit}
      ${lock ? sql`FOR UPDATE OF m SKIP LOCKED` : sql``}
    ) m
    WHERE c.status = 'processando' AND c.setor_ids @> ARRAY[${setorId}]::uuid[]
    ORDER BY c.created_at, c.id, m.seq
    LIMIT ${limit}
  `;
}

type CampaignRow = Selectable<CampaignsTable>;
type MessageRow = Selectable<CampaignMessagesTable>;

function toCampaign(row: CampaignRow): Campaign {
  return {
    id: row.id,
    companyId: row.company_id,
    apiKeyId: row.api_key_id,
    mode: row.mode as Campaign['mode'],
    name: row.name,
    title: row.title,
    description: row.description,
    status: row.status as CampaignStatus,
    content: row.content as unknown as CampaignContent,
    antiBanLevel: row.anti_ban_level as Campaign['antiBanLevel'],
    distribution: row.distribution as Campaign['distribution'],
    distributionMode: row.distribution_mode as Campaign['distributionMode'],
    setorIds: row.setor_ids,
    executionMode: row.execution_mode as Campaign['executionMode'],
    scheduledFor: row.scheduled_for,
    waitingReason: row.waiting_reason,
    callbackUrl: row.callback_url,
    creditsReserved: row.credits_reserved,
    totals: { total: row.total, enviados: row.enviados, falhas: row.falhas, pulados: row.pulados },
    error: row.error,
    cancelledByUser: row.cancelled_by_user,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** The fields a campaign's row stores as they are (its id, totals and creation time are written by `insert` alone). */
const CAMPAIGN_FIELDS = [
  'companyId', 'apiKeyId', 'mode', 'name', 'title', 'description', 'status', 'antiBanLevel', 'distribution', 'distributionMode', 'setorIds',
  'executionMode', 'scheduledFor', 'waitingReason', 'callbackUrl', 'creditsReserved', 'error', 'cancelledByUser', 'updatedAt', 'startedAt', 'finishedAt',
] as const;

function campaignColumns(c: Campaign) {
  return { ...columnsOf(c, CAMPAIGN_FIELDS), content: JSON.stringify(c.content) };
}

/** A query of whole campaign rows. */
type CampaignRows = SelectQueryBuilder<Database, 'campaigns', Selectable<CampaignsTable>>;

function toMessage(row: MessageRow): CampaignMessage {
  return {
    id: row.id,
    campaignId: row.campaign_id,
    companyId: row.company_id,
    seq: row.seq,
    contactId: row.contact_id,
    phone: row.phone,
    name: row.name,
    text: row.text,
    mediaUrl: row.media_url,
    mediaType: row.media_type as CampaignMessage['mediaType'],
    variables: row.variables as Record<string, string> | null,
    status: row.status as CampaignMessageStatus,
    assignedSetorId: row.assigned_setor_id,
    setorId: row.setor_id,
    actualSetorId: row.actual_setor_id,
    wasReassigned: row.was_reassigned,
    error: row.error,
    errorCode: row.error_code as SendFailureCode | null,
    skipReason: row.skip_reason as SkipReason | null,
    attempts: row.attempts,
    manualRetries: row.manual_retries,
    autoRetries: row.auto_retries,
    notBefore: row.not_before,
    claimedBy: row.claimed_by,
    claimedAt: row.claimed_at,
    providerMessageId: row.provider_message_id,
    sentAt: row.sent_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const UNFINISHED = ['pendente', 'processando', 'pausado'];

interface ClaimRequest {
  setorId: string;
  ids: readonly string[];
  by: string;
  now: Date;
}

/** One lane's claim in one statement (0021-campaign-claims: the function keeps its plan). */
async function claimAlone(db: Kysely<Database>, r: ClaimRequest): Promise<CampaignMessage[]> {
  const result = await sql<MessageRow>`
    SELECT * FROM carteiro_claim_listed(${r.setorId}::uuid, ${pgArray(r.ids)}::uuid[], ${r.by}, ${r.now}::timestamptz)
  `.execute(db);
  return result.rows.map(toMessage);
}

/** One grouped claim statement per database (pool): the lanes of a worker share it whatever repository they hold. */
function groupedClaims(db: Kysely<Database>): GroupedCalls<ClaimRequest, CampaignMessage[]> {
  return groupedOn<ClaimRequest, CampaignMessage[]>(db, 'campaigns.claimListed', async (requests) => {
    const ids = requests.flatMap((r) => r.ids);
    const column = <T>(f: (r: ClaimRequest) => T) => requests.flatMap((r) => r.ids.map(() => f(r)));
    // 0025-campaign-claims-grouped: each id with its lane's setor, owner and clock.
    const statement = sql<MessageRow>`
      SELECT * FROM carteiro_claim_grouped(${pgArray(ids)}::uuid[], ${pgArray(column((r) => r.setorId))}::uuid[],
        ${column((r) => r.by)}::text[], ${column((r) => r.now.toISOString())}::timestamptz[])
    `;
    let rows: MessageRow[];
    try {
      rows = (await statement.execute(db)).rows;
    } catch (error) {
      // A row held by another transaction (lock_timeout, 55P03) or a deadlock's victim (40P01): nothing was
      // claimed; each lane claims on its own, and only the lane that names the held row waits for it.
      const code = (error as { code?: string }).code;
      if (code !== '55P03' && code !== '40P01') throw error;
      return requests.map((r) => claimAlone(db, r));
    }
    const claimed = rows.map(toMessage);
    return requests.map((r) => {
      const asked = new Set(r.ids);
      return claimed.filter((m) => asked.has(m.id) && m.claimedBy === r.by);
    });
  });
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export class KyselyCampaignRepository implements CampaignRepository {
  /**
   * Reads of single campaigns by id made in the same tick (the campaign polls of many clients) share one
   * `WHERE id = ANY(…)` query. Nothing is cached: every read sees the rows as they are.
   */
  private readonly byId = new DataLoader<string, Campaign | null>(
    async (ids) => {
      const rows = await this.db.selectFrom('campaigns').selectAll().where('id', '=', sql<string>`ANY(${sql.val([...ids])}::uuid[])`).execute();
      const found = new Map(rows.map((row) => [row.id, toCampaign(row)]));
      return ids.map((id) => found.get(id) ?? null);
    },
    { cache: false, maxBatchSize: 500 },
  );

  constructor(private readonly db: Kysely<Database>) {}

  async insert(c: Campaign): Promise<void> {
    await this.db
      .insertInto('campaigns')
      .values({ id: c.id, ...campaignColumns(c), total: c.totals.total, enviados: c.totals.enviados, falhas: c.totals.falhas, pulados: c.totals.pulados, created_at: c.createdAt })
      .execute();
  }

  async insertMessages(messages: readonly CampaignMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const first = messages[0]!;
    const col = <T extends string | number | boolean | null>(f: (m: CampaignMessage) => T) => pgArray(messages.map(f));
    // Optional columns that no recipient uses are a constant NULL rather than an array of NULLs.
    const optional = <T extends string | null>(f: (m: CampaignMessage) => T, type: string) =>
      messages.some((m) => f(m) !== null) ? sql`${col(f)}::${sql.raw(type)}[]` : sql`array_fill(NULL::${sql.raw(type)}, ARRAY[${messages.length}::int])`;
    // Every row of a new campaign shares campaign, company, status and timestamps: they are constants.
    await sql`
      INSERT INTO campaign_messages (id, campaign_id, company_id, seq, contact_id, phone, name, text, media_url, media_type, variables,
                                     status, assigned_setor_id, setor_id, created_at, updated_at)
      SELECT u.id, ${first.campaignId}::uuid, ${first.companyId}::uuid, u.seq, u.contact_id, u.phone, u.name, u.text, u.media_url, u.media_type,
             u.variables::jsonb, 'pendente', u.setor_id, u.setor_id, ${first.createdAt}::timestamptz, ${first.createdAt}::timestamptz
      FROM unnest(${col((m) => m.id)}::uuid[], ${col((m) => m.seq)}::int[], ${optional((m) => m.contactId, 'uuid')}, ${col((m) => m.phone)}::text[],
                  ${optional((m) => m.name, 'text')}, ${optional((m) => m.text, 'text')}, ${optional((m) => m.mediaUrl, 'text')},
                  ${optional((m) => m.mediaType, 'text')}, ${optional((m) => (m.variables ? JSON.stringify(m.variables) : null), 'text')},
                  ${col((m) => m.assignedSetorId)}::uuid[])
        AS u(id, seq, contact_id, phone, name, text, media_url, media_type, variables, setor_id)
    `.execute(this.db);
  }

  async update(c: Campaign): Promise<void> {
    await this.db.updateTable('campaigns').set(campaignColumns(c)).where('id', '=', c.id).execute();
  }

  async addTotals(id: string, d: Omit<CampaignTotals, 'total'>): Promise<Campaign | null> {
    const row = await this.db
      .updateTable('campaigns')
      .set({ enviados: sql`enviados + ${d.enviados}`, falhas: sql`falhas + ${d.falhas}`, pulados: sql`pulados + ${d.pulados}` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toCampaign(row) : null;
  }

  async findById(id: string): Promise<Campaign | null> {
    return findRecord(this.db, 'campaigns', id, toCampaign);
  }

  async findByIdInCompany(companyId: string, id: string): Promise<Campaign | null> {
    if (!isUuid(id)) return null;
    const campaign = await this.byId.load(id.toLowerCase());
    return campaign && campaign.companyId === companyId ? campaign : null;
  }

  async findByIdForUpdate(id: string): Promise<Campaign | null> {
    return findRecord(this.db, 'campaigns', id, toCampaign, 'forUpdate');
  }

  /** The campaigns whose rows `narrow` keeps (and orders) of every campaign's row. */
  private async campaignsWhere(narrow: (all: CampaignRows) => CampaignRows): Promise<Campaign[]> {
    return (await narrow(this.db.selectFrom('campaigns').selectAll()).execute()).map(toCampaign);
  }

  async listByCompany(companyId: string, filter: { status?: CampaignStatus }, page: PageRequest) {
    let q = this.db.selectFrom('campaigns').where('company_id', '=', companyId);
    if (filter.status) q = q.where('status', '=', filter.status);
    return readPage(q, (rows) => rows.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), page, (rows) => rows.map(toCampaign));
  }

  activeOfCompany(companyId: string): Promise<Campaign[]> {
    return this.campaignsWhere((all) => all.where('company_id', '=', companyId).where('status', 'in', ['pendente', 'processando']).orderBy('created_at').orderBy('id'));
  }

  async unsettledLiveMessages(companyId: string): Promise<number> {
    const row = await this.db
      .selectFrom('campaigns')
      .select(sql<number>`coalesce(sum(total - enviados - falhas - pulados), 0)`.as('n'))
      .where('company_id', '=', companyId)
      .where('mode', '=', 'live')
      .where('status', 'in', UNFINISHED)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  dueToStart(now: Date, limit: number): Promise<Campaign[]> {
    return this.campaignsWhere((all) => all.where('status', '=', 'pendente').where((eb) => eb.or([eb('scheduled_for', 'is', null), eb('scheduled_for', '<=', now)])).orderBy('created_at').limit(limit));
  }

  settledButRunning(limit: number): Promise<Campaign[]> {
    return this.campaignsWhere((all) => all.where('status', '=', 'processando').where(sql<boolean>`enviados + falhas + pulados >= total`).limit(limit));
  }

  unfinishedUsingSetor(setorId: string): Promise<Campaign[]> {
    return this.campaignsWhere((all) => all.where('status', 'in', UNFINISHED).where(sql<boolean>`setor_ids @> ARRAY[${setorId}]::uuid[]`).orderBy('created_at').orderBy('id'));
  }

  async listMessages(campaignId: string, filter: MessageFilter, page: PageRequest) {
    let q = this.db.selectFrom('campaign_messages').where('campaign_id', '=', campaignId);
    if (filter.status === 'pendente') q = q.where('status', 'in', ['pendente', 'enviando']);
    else if (filter.status) q = q.where('status', '=', filter.status);
    if (filter.q) {
      const like = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) => eb.or([eb('phone', 'ilike', like), eb('name', 'ilike', like)]));
    }
    return readPage(q, (rows) => rows.selectAll().orderBy('seq'), page, (rows) => rows.map(toMessage));
  }

  async findMessagesByIds(campaignId: string, ids: readonly string[]): Promise<CampaignMessage[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const rows = await this.db
      .selectFrom('campaign_messages')
      .selectAll()
      .where('campaign_id', '=', campaignId)
      .where('id', '=', sql<string>`any(${pgArray(valid)}::uuid[])`)
      .orderBy('seq')
      .execute();
    return rows.map(toMessage);
  }

  async messagesInStatus(campaignId: string, statuses: readonly CampaignMessageStatus[], setorId?: string): Promise<CampaignMessage[]> {
    let q = this.db.selectFrom('campaign_messages').selectAll().where('campaign_id', '=', campaignId).where('status', 'in', [...statuses]);
    if (setorId !== undefined) q = q.where('setor_id', '=', setorId);
    return (await q.orderBy('seq').execute()).map(toMessage);
  }

  async messagesWithoutContact(campaignId: string): Promise<Pick<CampaignMessage, 'id' | 'phone' | 'name'>[]> {
    return this.db
      .selectFrom('campaign_messages')
      .select(['id', 'phone', 'name'])
      .where('campaign_id', '=', campaignId)
      .where('contact_id', 'is', null)
      .orderBy('seq')
      .execute();
  }

  async attachContacts(campaignId: string, links: readonly { id: string; contactId: string; name: string | null }[]): Promise<void> {
    if (links.length === 0) return;
    await sql`
      UPDATE campaign_messages m SET contact_id = u.contact_id, name = coalesce(m.name, u.name)
      FROM unnest(${pgArray(links.map((l) => l.id))}::uuid[], ${pgArray(links.map((l) => l.contactId))}::uuid[], ${pgArray(links.map((l) => l.name))}::text[])
        AS u(id, contact_id, name)
      WHERE m.id = u.id AND m.campaign_id = ${campaignId}::uuid
    `.execute(this.db);
  }

  async updateMessages(changes: readonly MessageChange[]): Promise<string[]> {
    if (changes.length === 0) return [];
    const col = <T extends string | number | boolean | null>(f: (c: MessageChange) => T) => pgArray(changes.map(f));
    const result = await sql<{ id: string }>`
      UPDATE campaign_messages m SET
        status = u.status, setor_id = u.setor_id, actual_setor_id = u.actual_setor_id, was_reassigned = u.was_reassigned,
        error = u.error, error_code = u.error_code, skip_reason = u.skip_reason, attempts = u.attempts,
        manual_retries = u.manual_retries, auto_retries = u.auto_retries, not_before = u.not_before,
        claimed_by = u.claimed_by, claimed_at = u.claimed_at, provider_message_id = u.provider_message_id,
        sent_at = u.sent_at, updated_at = u.updated_at
      FROM unnest(
        ${col((c) => c.message.id)}::uuid[], ${col((c) => c.expectedStatus)}::text[], ${col((c) => c.expectedClaimedBy ?? null)}::text[],
        ${col((c) => c.message.status)}::text[], ${col((c) => c.message.setorId)}::uuid[], ${col((c) => c.message.actualSetorId)}::uuid[],
        ${col((c) => c.message.wasReassigned)}::boolean[], ${col((c) => c.message.error)}::text[], ${col((c) => c.message.errorCode)}::text[],
        ${col((c) => c.message.skipReason)}::text[], ${col((c) => c.message.attempts)}::int[], ${col((c) => c.message.manualRetries)}::int[],
        ${col((c) => c.message.autoRetries)}::int[], ${col((c) => iso(c.message.notBefore))}::timestamptz[], ${col((c) => c.message.claimedBy)}::text[],
        ${col((c) => iso(c.message.claimedAt))}::timestamptz[], ${col((c) => c.message.providerMessageId)}::text[],
        ${col((c) => iso(c.message.sentAt))}::timestamptz[], ${col((c) => iso(c.message.updatedAt))}::timestamptz[]
      ) AS u(id, expected_status, expected_claimed_by, status, setor_id, actual_setor_id, was_reassigned, error, error_code, skip_reason,
             attempts, manual_retries, auto_retries, not_before, claimed_by, claimed_at, provider_message_id, sent_at, updated_at)
      WHERE m.id = u.id AND m.status = u.expected_status
        AND (u.expected_claimed_by IS NULL OR m.claimed_by = u.expected_claimed_by)
      RETURNING m.id
    `.execute(this.db);
    return result.rows.map((r) => r.id);
  }

  async claimMessages(setorId: string, by: string, limit: number, now: Date): Promise<CampaignMessage[]> {
    // Oldest running campaign first, then request order; rows another lane holds are skipped.
    const result = await sql<MessageRow & { ord: number }>`
      WITH picked AS (
        SELECT p.id, p.ord FROM (${nextPending(setorId, limit, now, true)}) p
      )
      UPDATE campaign_messages m SET status = 'enviando', claimed_by = ${by}, claimed_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
      FROM picked WHERE m.id = picked.id
      RETURNING m.*, picked.ord
    `.execute(this.db);
    return result.rows.sort((a, b) => Number(a.ord) - Number(b.ord)).map(toMessage);
  }

  async pendingAhead(setorId: string, limit: number, now: Date): Promise<CampaignMessage[]> {
    const result = await sql<MessageRow>`
      SELECT m.* FROM (${nextPending(setorId, limit, now, false)}) p
      JOIN campaign_messages m ON m.id = p.id
      ORDER BY p.ord
    `.execute(this.db);
    return result.rows.map(toMessage);
  }

  async claimListed(setorId: string, ids: readonly string[], by: string, now: Date): Promise<CampaignMessage[]> {
    if (ids.length === 0) return [];
    const order = new Map(ids.map((id, i) => [id, i]));
    const request = { setorId, ids, by, now };
    // Outside a transaction the claims of every lane of this process made at once share one statement; inside
    // one, the lane's own statement.
    const claimed = this.db.isTransaction ? await claimAlone(this.db, request) : await groupedClaims(this.db).submit(request);
    return claimed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }

  async inFlight(setorId: string): Promise<CampaignMessage[]> {
    const rows = await this.db
      .selectFrom('campaign_messages')
      .selectAll()
      .where('setor_id', '=', setorId)
      // A literal, not a parameter: the statement's kept (generic) plan can then use the partial index of in-flight
      // messages; with `status = $2` it read every message of the setor (18 ms a lane start at 2,000 numbers).
      .where('status', '=', sql.lit('enviando'))
      .orderBy('campaign_id')
      .orderBy('seq')
      .execute();
    return rows.map(toMessage);
  }

  async skipPending(
    campaignId: string,
    skip: { reason: SkipReason; code: SendFailureCode | null; error: string | null; setorId?: string },
    now: Date,
  ): Promise<number> {
    let q = this.db
      .updateTable('campaign_messages')
      .set({ status: 'pulado', skip_reason: skip.reason, error_code: skip.code, error: skip.error, updated_at: now })
      .where('campaign_id', '=', campaignId)
      .where('status', '=', 'pendente');
    if (skip.setorId !== undefined) q = q.where('setor_id', '=', skip.setorId);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async reassign(campaignId: string, moves: readonly Reassignment[], now: Date): Promise<number> {
    if (moves.length === 0) return 0;
    const result = await sql`
      UPDATE campaign_messages m SET setor_id = u.setor_id, was_reassigned = m.was_reassigned OR u.setor_id <> m.assigned_setor_id, updated_at = ${now}::timestamptz
      FROM unnest(${pgArray(moves.map((x) => x.id))}::uuid[], ${pgArray(moves.map((x) => x.setorId))}::uuid[]) AS u(id, setor_id)
      WHERE m.id = u.id AND m.campaign_id = ${campaignId}::uuid AND m.status = 'pendente'
    `.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  async setoresWithWork(now: Date): Promise<string[]> {
    const result = await sql<{ setor_id: string }>`
      SELECT DISTINCT w.setor_id FROM (
        SELECT m.setor_id FROM campaign_messages m JOIN campaigns c ON c.id = m.campaign_id
        WHERE m.status = 'pendente' AND c.status = 'processando' AND (m.not_before IS NULL OR m.not_before <= ${now}::timestamptz)
        UNION
        SELECT m.setor_id FROM campaign_messages m WHERE m.status = 'enviando'
      ) w
      LEFT JOIN dispatch_lanes l ON l.setor_id = w.setor_id
      WHERE l.lease_until IS NULL OR l.lease_until <= ${now}::timestamptz
      ORDER BY w.setor_id
    `.execute(this.db);
    return result.rows.map((r) => r.setor_id);
  }

  async earliestRetry(setorId: string): Promise<Date | null> {
    const result = await sql<{ at: Date | null }>`
      SELECT min(m.not_before) AS at FROM campaign_messages m JOIN campaigns c ON c.id = m.campaign_id
      WHERE m.setor_id = ${setorId}::uuid AND m.status = 'pendente' AND c.status = 'processando' AND m.not_before IS NOT NULL
    `.execute(this.db);
    return result.rows[0]?.at ?? null;
  }
}

function toLane(row: Selectable<DispatchLanesTable>): DispatchLane {
  return { setorId: row.setor_id, owner: row.owner, leaseUntil: row.lease_until, nextSendAt: row.next_send_at };
}

export class KyselyDispatchLaneRepository implements DispatchLaneRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async acquire(setorId: string, owner: string, now: Date, leaseUntil: Date): Promise<DispatchLane | null> {
    const row = await this.db
      .insertInto('dispatch_lanes')
      .values({ setor_id: setorId, owner, lease_until: leaseUntil, next_send_at: null, updated_at: now })
      .onConflict((oc) =>
        oc
          .column('setor_id')
          .doUpdateSet({ owner, lease_until: leaseUntil, updated_at: now })
          .where((eb) =>
            eb.or([
              eb('dispatch_lanes.owner', 'is', null),
              eb('dispatch_lanes.owner', '=', owner),
              eb('dispatch_lanes.lease_until', 'is', null),
              eb('dispatch_lanes.lease_until', '<=', now),
            ]),
          ),
      )
      .returningAll()
      .executeTakeFirst();
    return row ? toLane(row) : null;
  }

  async renew(setorId: string, owner: string, leaseUntil: Date, nextSendAt: Date | null): Promise<boolean> {
    const result = await this.db
      .updateTable('dispatch_lanes')
      .set({ lease_until: leaseUntil, next_send_at: nextSendAt, updated_at: new Date() })
      .where('setor_id', '=', setorId)
      .where('owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** One statement, rows locked in setor order. */
  async renewAll(renewals: readonly { setorId: string; owner: string; leaseUntil: Date; nextSendAt: Date | null }[]): Promise<boolean[]> {
    if (renewals.length === 0) return [];
    const sorted = [...renewals].sort((a, b) => (a.setorId < b.setorId ? -1 : a.setorId > b.setorId ? 1 : 0));
    const { rows } = await sql<{ setor_id: string; owner: string }>`
      UPDATE dispatch_lanes d SET lease_until = r.lease_until, next_send_at = r.next_send_at, updated_at = now()
      FROM unnest(${sorted.map((r) => r.setorId)}::uuid[], ${sorted.map((r) => r.owner)}::text[],
                  ${sorted.map((r) => r.leaseUntil.toISOString())}::timestamptz[], ${sorted.map((r) => r.nextSendAt?.toISOString() ?? null)}::timestamptz[])
        AS r(setor_id, owner, lease_until, next_send_at)
      WHERE d.setor_id = r.setor_id AND d.owner = r.owner
      RETURNING d.setor_id, d.owner`.execute(this.db);
    const renewed = new Set(rows.map((row) => `${row.setor_id} ${row.owner}`));
    return renewals.map((r) => renewed.has(`${r.setorId} ${r.owner}`));
  }

  async release(setorId: string, owner: string, nextSendAt: Date | null): Promise<void> {
    await this.db
      .updateTable('dispatch_lanes')
      .set({ owner: null, lease_until: null, next_send_at: nextSendAt, updated_at: new Date() })
      .where('setor_id', '=', setorId)
      .where('owner', '=', owner)
      .execute();
  }

  async find(setorId: string): Promise<DispatchLane | null> {
    const row = await this.db.selectFrom('dispatch_lanes').selectAll().where('setor_id', '=', setorId).executeTakeFirst();
    return row ? toLane(row) : null;
  }

  async liveOwners(now: Date): Promise<string[]> {
    const rows = await this.db.selectFrom('dispatch_lanes').select('owner').where('owner', 'is not', null).where('lease_until', '>', now).execute();
    return rows.map((r) => r.owner!);
  }
}

function toRecord(row: Selectable<IdempotencyKeysTable>): IdempotencyRecord {
  return { ...fieldsOf(row, ['company_id', 'key', 'request_hash', 'response_status', 'response_body', 'created_at', 'locked_until']), state: row.state as IdempotencyRecord['state'] };
}

export class KyselyIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async begin(record: IdempotencyRecord, expiredBefore: Date): Promise<IdempotencyRecord | null> {
    // The request's record, in flight: inserted, or written over an expired or abandoned one.
    const inFlight = { request_hash: record.requestHash, state: 'in_flight', response_status: null, response_body: null, created_at: record.createdAt, locked_until: record.lockedUntil };
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const taken = await this.db
        .insertInto('idempotency_keys')
        .values({ company_id: record.companyId, key: record.key, ...inFlight })
        .onConflict((oc) =>
          oc
            .columns(['company_id', 'key'])
            .doUpdateSet(inFlight)
            .where((eb) =>
              eb.or([
                eb('idempotency_keys.created_at', '<', expiredBefore),
                eb.and([eb('idempotency_keys.state', '=', 'in_flight'), eb('idempotency_keys.locked_until', '<=', record.createdAt)]),
              ]),
            ),
        )
        .returning('key')
        .executeTakeFirst();
      if (taken) return null;
      const existing = await this.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('company_id', '=', record.companyId)
        .where('key', '=', record.key)
        .executeTakeFirst();
      if (existing) return toRecord(existing);
    }
    throw new Error('Idempotency-Key record kept changing under concurrent requests');
  }

  async complete(companyId: string, key: string, status: number, body: unknown): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ state: 'completed', response_status: status, response_body: JSON.stringify(body) })
      .where('company_id', '=', companyId)
      .where('key', '=', key)
      .execute();
  }

  async release(companyId: string, key: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('company_id', '=', companyId).where('key', '=', key).where('state', '=', 'in_flight').execute();
  }

  async purge(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
