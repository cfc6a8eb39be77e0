import type { ChannelCheck, ChannelCheckRepository, Lead, LeadRepositories, LeadSearch, LeadSearchCriteria, LeadSearchRepository, LeadSearchStatus, Page, PageRequest } from '@carteiro/core';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import { findRecord } from '../shared/records.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { LeadSearchesTable } from './leads-tables.js';

function toSearch(row: Selectable<LeadSearchesTable>): LeadSearch {
  return {
    ...fieldsOf(row, [
      'id', 'company_id', 'api_key_id', 'mode', 'source', 'returned', 'total', 'credits_used', 'dataset_month', 'cursor', 'pages_read', 'error', 'created_at', 'started_at',
      'completed_at', 'expires_at',
    ]),
    status: row.status as LeadSearchStatus,
    criteria: row.criteria as LeadSearchCriteria,
  };
}

function toRow(s: LeadSearch) {
  return {
    ...columnsOf(s, [
      'id', 'companyId', 'apiKeyId', 'mode', 'status', 'source', 'returned', 'total', 'creditsUsed', 'datasetMonth', 'cursor', 'pagesRead', 'error', 'createdAt', 'startedAt',
      'completedAt', 'expiresAt',
    ]),
    criteria: JSON.stringify(s.criteria),
  };
}

export class KyselyLeadSearchRepository implements LeadSearchRepository {
  constructor(private readonly db: Kysely<Database>) {}
  async insert(search: LeadSearch) {
    await this.db.insertInto('lead_searches').values(toRow(search)).execute();
  }
  async findById(companyId: string, id: string, now: Date) {
    const row = await this.db.selectFrom('lead_searches').selectAll().where('id', '=', id).where('company_id', '=', companyId).where('expires_at', '>', now).executeTakeFirst();
    return row ? toSearch(row) : null;
  }
  async findByIdForUpdate(id: string) {
    return findRecord(this.db, 'lead_searches', id, toSearch, 'forUpdate');
  }
  async update(search: LeadSearch) {
    const { id, company_id: _c, api_key_id: _k, created_at: _t, ...rest } = toRow(search);
    await this.db.updateTable('lead_searches').set(rest).where('id', '=', id).execute();
  }
  async appendItems(searchId: string, from: number, items: readonly Lead[]) {
    if (items.length === 0) return;
    await this.db
      .insertInto('lead_search_items')
      .values(items.map((lead, i) => ({ search_id: searchId, position: from + i, lead: JSON.stringify(lead) })))
      .onConflict((oc) => oc.columns(['search_id', 'position']).doNothing())
      .execute();
  }
  async listItems(searchId: string, page: PageRequest): Promise<Page<Lead>> {
    const items = this.db.selectFrom('lead_search_items').where('search_id', '=', searchId);
    return readPage(items, (q) => q.select('lead').orderBy('position'), page, (rows) => rows.map((r) => r.lead as Lead));
  }
  async countLiveSince(companyId: string, from: Date) {
    const row = await this.db
      .selectFrom('lead_searches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('mode', '=', 'live')
      .where('created_at', '>=', from)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  async listUnfinished(limit: number) {
    const rows = await this.db.selectFrom('lead_searches').select('id').where('status', 'in', ['queued', 'running']).orderBy('created_at').limit(limit).execute();
    return rows.map((r) => r.id);
  }
  async deleteExpired(now: Date) {
    const result = await this.db.deleteFrom('lead_searches').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

export class KyselyChannelCheckRepository implements ChannelCheckRepository {
  constructor(private readonly db: Kysely<Database>) {}
  async find(companyId: string, setorId: string, phones: readonly string[], since: Date): Promise<ChannelCheck[]> {
    if (phones.length === 0) return [];
    const rows = await this.db
      .selectFrom('lead_channel_checks')
      .select(['phone', 'has_channel', 'checked_at'])
      .where('company_id', '=', companyId)
      .where('setor_id', '=', setorId)
      .where('phone', 'in', [...phones])
      .where('checked_at', '>=', since)
      .execute();
    return rows.map((r) => ({ phone: r.phone, hasChannel: r.has_channel, checkedAt: r.checked_at }));
  }
  async save(companyId: string, setorId: string, checks: readonly ChannelCheck[]) {
    if (checks.length === 0) return;
    await this.db
      .insertInto('lead_channel_checks')
      .values(checks.map((c) => ({ company_id: companyId, setor_id: setorId, phone: c.phone, has_channel: c.hasChannel, checked_at: c.checkedAt })))
      .onConflict((oc) => oc.columns(['company_id', 'setor_id', 'phone']).doUpdateSet((eb) => ({ has_channel: eb.ref('excluded.has_channel'), checked_at: eb.ref('excluded.checked_at') })))
      .execute();
  }
  async deleteCheckedBefore(before: Date) {
    const result = await this.db.deleteFrom('lead_channel_checks').where('checked_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

export function kyselyLeadRepositories(db: Kysely<Database>): LeadRepositories {
  return { leadSearches: new KyselyLeadSearchRepository(db), channelChecks: new KyselyChannelCheckRepository(db) };
}
