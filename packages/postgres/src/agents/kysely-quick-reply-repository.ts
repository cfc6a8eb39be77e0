import type { MediaType, Page, PageRequest, QuickReply, QuickReplyFilters, QuickReplyRepository } from '@carteiro/core';
import { placeholdersOf } from '@carteiro/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { countCompanyRows, findCompanyRecord } from '../shared/records.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { QuickRepliesTable } from './agents-tables.js';

function toQuickReply(row: Selectable<QuickRepliesTable>): QuickReply {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'setor_id', 'shortcut', 'title', 'text', 'media_url', 'created_at', 'updated_at']),
    mediaType: row.media_type as MediaType | null,
    placeholders: placeholdersOf(row.text),
  };
}

/** LIKE pattern matching `q` literally anywhere. */
const contains = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class KyselyQuickReplyRepository implements QuickReplyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private async holder(reply: QuickReply): Promise<QuickReply | null> {
    const row = await this.db
      .selectFrom('quick_replies')
      .selectAll()
      .where('company_id', '=', reply.companyId)
      .where('shortcut', '=', reply.shortcut)
      .where(sql<boolean>`setor_id IS NOT DISTINCT FROM ${reply.setorId}::uuid`)
      .executeTakeFirst();
    return row ? toQuickReply(row) : null;
  }

  async insertUnique(reply: QuickReply): Promise<QuickReply | null> {
    const inserted = await this.db
      .insertInto('quick_replies')
      .values(columnsOf(reply, ['id', 'companyId', 'setorId', 'shortcut', 'title', 'text', 'mediaUrl', 'mediaType', 'createdAt', 'updatedAt']))
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted ? null : this.holder(reply);
  }

  async update(reply: QuickReply): Promise<QuickReply | null> {
    const holder = await this.holder(reply);
    if (holder && holder.id !== reply.id) return holder;
    await this.db
      .updateTable('quick_replies')
      .set(columnsOf(reply, ['setorId', 'shortcut', 'title', 'text', 'mediaUrl', 'mediaType', 'updatedAt']))
      .where('id', '=', reply.id)
      .where('company_id', '=', reply.companyId)
      .execute();
    return null;
  }

  async findById(companyId: string, id: string): Promise<QuickReply | null> {
    return findCompanyRecord(this.db, 'quick_replies', companyId, id, toQuickReply);
  }

  async companyOf(id: string): Promise<string | null> {
    const row = await this.db.selectFrom('quick_replies').select('company_id').where('id', '=', id).executeTakeFirst();
    return row?.company_id ?? null;
  }

  async list(companyId: string, filters: QuickReplyFilters, page: PageRequest): Promise<Page<QuickReply>> {
    let base = this.db.selectFrom('quick_replies').where('company_id', '=', companyId);
    if (filters.setorId !== undefined) {
      const setorId = filters.setorId;
      base = base.where((eb) => eb.or([eb('setor_id', 'is', null), eb('setor_id', '=', setorId)]));
    }
    if (filters.q) {
      const pattern = contains(filters.q);
      base = base.where((eb) => eb.or([eb('shortcut', 'ilike', pattern), eb('title', 'ilike', pattern), eb('text', 'ilike', pattern)]));
    }
    return readPage(base, (q) => q.selectAll().orderBy(sql`shortcut COLLATE "C"`).orderBy(sql`setor_id IS NOT NULL`).orderBy('id'), page, (rows) => rows.map(toQuickReply));
  }

  async count(companyId: string): Promise<number> {
    return countCompanyRows(this.db, 'quick_replies', companyId);
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('quick_replies').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
