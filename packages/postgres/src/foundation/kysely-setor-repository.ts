import type { ChannelType, Page, PageRequest, Setor, SetorRepository } from '@carteiro/core';
import { DEFAULT_SETOR_INBOX_SETTINGS } from '@carteiro/core';
import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Database } from '../shared/database.js';
import { findCompanyRecord } from '../shared/records.js';
import { rowByKey } from '../shared/grouped-statements.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { SetoresTable } from './foundation-tables.js';

/** The setor's inbox settings: one column each, under the same names. */
const INBOX_COLUMNS = ['closing_message', 'csat_enabled', 'csat_question', 'csat_thanks', 'reopen_window_minutes', 'assistant_enabled', 'default_team_id'] as const;
const INBOX_FIELDS = ['closingMessage', 'csatEnabled', 'csatQuestion', 'csatThanks', 'reopenWindowMinutes', 'assistantEnabled', 'defaultTeamId'] as const;

function toSetor(row: Selectable<SetoresTable>): Setor {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'nome', 'official', 'warming_daily_limit_override', 'created_at', 'updated_at']),
    channelType: row.channel_type as ChannelType,
    inbox: fieldsOf(row, INBOX_COLUMNS),
  };
}

function inboxColumns(setor: Setor) {
  return columnsOf(setor.inbox ?? DEFAULT_SETOR_INBOX_SETTINGS, INBOX_FIELDS);
}

export class KyselySetorRepository implements SetorRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(setor: Setor): Promise<void> {
    await this.db
      .insertInto('setores')
      .values({
        ...columnsOf(setor, ['id', 'companyId', 'nome', 'channelType', 'warmingDailyLimitOverride', 'createdAt', 'updatedAt']),
        official: JSON.stringify(setor.official),
        ...inboxColumns(setor),
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
    const row = await rowByKey(this.db, 'setores.findById', 'setores', 'id', id);
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
    return findCompanyRecord(this.db, 'setores', companyId, id, toSetor);
  }

  private ofCompany(companyId: string) {
    return this.db.selectFrom('setores').where('company_id', '=', companyId);
  }

  async listByCompany(companyId: string, page: PageRequest): Promise<Page<Setor>> {
    return readPage(this.ofCompany(companyId), (q) => q.selectAll().orderBy('created_at').orderBy('id'), page, (rows) => rows.map(toSetor));
  }

  async allOfCompany(companyId: string): Promise<Setor[]> {
    const rows = await this.ofCompany(companyId).selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toSetor);
  }
}
