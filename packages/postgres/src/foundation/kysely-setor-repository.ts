import type { ChannelType, Page, PageRequest, Setor, SetorRepository } from '@carteiro/core';
import { DEFAULT_SETOR_INBOX_SETTINGS, pageOffset, toPage } from '@carteiro/core';
import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Database } from '../shared/database.js';
import { groupedById } from '../shared/grouped-statements.js';
import type { SetoresTable } from './foundation-tables.js';

function toSetor(row: Selectable<SetoresTable>): Setor {
  return {
    id: row.id,
    companyId: row.company_id,
    nome: row.nome,
    channelType: row.channel_type as ChannelType,
    official: row.official,
    warmingDailyLimitOverride: row.warming_daily_limit_override,
    inbox: {
      closingMessage: row.closing_message,
      csatEnabled: row.csat_enabled,
      csatQuestion: row.csat_question,
      csatThanks: row.csat_thanks,
      reopenWindowMinutes: row.reopen_window_minutes,
      assistantEnabled: row.assistant_enabled,
      defaultTeamId: row.default_team_id,
    },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function inboxColumns(setor: Setor) {
  const inbox = setor.inbox ?? DEFAULT_SETOR_INBOX_SETTINGS;
  return {
    closing_message: inbox.closingMessage,
    csat_enabled: inbox.csatEnabled,
    csat_question: inbox.csatQuestion,
    csat_thanks: inbox.csatThanks,
    reopen_window_minutes: inbox.reopenWindowMinutes,
    assistant_enabled: inbox.assistantEnabled,
    default_team_id: inbox.defaultTeamId,
  };
}

export class KyselySetorRepository implements SetorRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(setor: Setor): Promise<void> {
    await this.db
      .insertInto('setores')
      .values({
        id: setor.id,
        company_id: setor.companyId,
        nome: setor.nome,
        channel_type: setor.channelType,
        official: JSON.stringify(setor.official),
        warming_daily_limit_override: setor.warmingDailyLimitOverride,
        ...inboxColumns(setor),
        created_at: setor.createdAt,
        updated_at: setor.updatedAt,
      })
      .execute();
  }

  async update(setor: Setor): Promise<void> {
    await this.db
      .updateTable('setores')
      .set({
        nome: setor.nome,
        official: JSON.stringify(setor.official),
        warming_daily_limit_override: setor.warmingDailyLimitOverride,
        ...inboxColumns(setor),
        updated_at: setor.updatedAt,
      })
      .where('id', '=', setor.id)
      .execute();
  }

  async findById(id: string): Promise<Setor | null> {
    if (!this.db.isTransaction) {
      // Outside a transaction (the dispatch lanes of a worker reading their context) the reads made at once share a statement.
      const db = this.db;
      const row = await groupedById(db, 'setores.findById', (ids) => db.selectFrom('setores').selectAll().where('id', '=', sql<string>`ANY(${ids}::uuid[])`).execute(), (r) => r.id)(id);
      return row ? toSetor(row) : null;
    }
    const row = await this.db.selectFrom('setores').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toSetor(row) : null;
  }

  async findByIdLocking(id: string, lockKey: string): Promise<Setor | null> {
    // The lock is in the target list: taken only when the row exists (as pg_advisory_xact_lock alone, same key hash).
    const row = await this.db
      .selectFrom('setores')
      .selectAll()
      .select(sql<string>`pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))::text`.as('locked'))
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toSetor(row) : null;
  }

  async findAllLocking(ids: readonly string[], lockKeys: readonly string[]): Promise<Setor[]> {
    if (ids.length === 0) return [];
    // An uncorrelated subquery: run once, before the first row is returned (so only when a setor exists); unnest gives
    // the keys in array order, so the locks are taken in that order (as lockContactThreads).
    const rows = await this.db
      .selectFrom('setores')
      .selectAll()
      .select(sql<string>`(SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0))) FROM unnest(${[...lockKeys]}::text[]) AS k)::text`.as('locked'))
      .where(sql<SqlBool>`id = ANY(${[...new Set(ids)]}::uuid[])`)
      .execute();
    return rows.map(toSetor);
  }

  async findByIdInCompany(companyId: string, id: string): Promise<Setor | null> {
    const row = await this.db
      .selectFrom('setores')
      .selectAll()
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    return row ? toSetor(row) : null;
  }

  async listByCompany(companyId: string, page: PageRequest): Promise<Page<Setor>> {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('setores')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('created_at')
        .orderBy('id')
        .limit(page.limit)
        .offset(pageOffset(page))
        .execute(),
      this.db
        .selectFrom('setores')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow(),
    ]);
    return toPage(rows.map(toSetor), total.n, page);
  }

  async allOfCompany(companyId: string): Promise<Setor[]> {
    const rows = await this.db
      .selectFrom('setores')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toSetor);
  }
}
