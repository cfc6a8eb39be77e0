import type { ChannelCheck, ChannelCheckRepository, Lead, LeadRepositories, LeadSearch, LeadSearchCriteria, LeadSearchRepository, LeadSearchStatus, Page, PageRequest } from '@carteiro/core';
import { pageOffset, toPage } from '@carteiro/core';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../shared/database.js';
import type { LeadSearchesTable } from './leads-tables.js';

function toSearch(row: Selectable<LeadSearchesTable>): LeadSearch {
  return {
    id: row.id,
    companyId: row.company_id,
    apiKeyId: row.api_key_id,
    mode: row.mode,
    status: row.status as LeadSearchStatus,
    criteria: row.criteria as LeadSearchCriteria,
    source: row.source,
    returned: row.returned,
    total: row.total,
    creditsUsed: row.credits_used,
    datasetMonth: row.dataset_month,
    cursor: row.cursor,
    pagesRead: row.pages_read,
    error: row.error,
    createdAt: row.created_at,
    startedAt: row.started_at,
    completedAt: row.completed_at,
    expiresAt: row.expires_at,
  };
}

function toRow(s: LeadSearch) {
  return {
    id: s.id,
    company_id: s.companyId,
    api_key_id: s.apiKeyId,
    mode: s.mode,
    status: s.status,
    criteria: JSON.stringify(s.criteria),
    source: s.source,
    returned: s.returned,
    total: s.total,
    credits_used: s.creditsUsed,
    dataset_month: s.datasetMonth,
    cursor: s.cursor,
    pages_read: s.pagesRead,
    error: s.error,
    created_at: s.createdAt,
    started_at: s.startedAt,
    completed_at: s.completedAt,
    expires_at: s.expiresAt,
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
    const row = await this.db.selectFrom('lead_searches').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    return row ? toSearch(row) : null;
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
    const [rows, count] = await Promise.all([
      this.db.selectFrom('lead_search_items').select('lead').where('search_id', '=', searchId).orderBy('position').limit(page.limit).offset(pageOffset(page)).execute(),
      this.db.selectFrom('lead_search_items').select((eb) => eb.fn.countAll<number>().as('n')).where('search_id', '=', searchId).executeTakeFirstOrThrow(),
    ]);
    return toPage(
      rows.map((r) => r.lead as Lead),
      Number(count.n),
      page,
    );
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
