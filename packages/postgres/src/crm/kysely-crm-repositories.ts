import type {
  Cents,
  CrmRepositories,
  EventActor,
  FunnelStage,
  FunnelStageRepository,
  Opportunity,
  OpportunityFilter,
  OpportunityHistoryEntry,
  OpportunityProduct,
  OpportunityRepository,
  OpportunityStatus,
  Page,
  PageRequest,
  Product,
  ProductConflict,
  ProductFilter,
  ProductRepository,
} from '@carteiro/core';
import { pageOffset, toPage } from '@carteiro/core';
import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../shared/database.js';
import { findCompanyRecord, findCompanyRecords, updateCompanyRow } from '../shared/records.js';
import { readPage } from '../shared/read-page.js';
import { columnsOf, fieldsOf } from '../shared/row-fields.js';
import type { CrmOpportunitiesTable, CrmProductsTable, CrmStagesTable } from './crm-tables.js';

const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

function toStage(row: Selectable<CrmStagesTable>): FunnelStage {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'name', 'position', 'is_won', 'is_lost', 'win_probability', 'color']),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export class KyselyFunnelStageRepository implements FunnelStageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listByCompany(companyId: string) {
    const rows = await this.db.selectFrom('crm_stages').selectAll().where('company_id', '=', companyId).orderBy('position').execute();
    return rows.map(toStage);
  }

  async findById(companyId: string, id: string) {
    return findCompanyRecord(this.db, 'crm_stages', companyId, id, toStage);
  }

  async findByIdForUse(companyId: string, id: string) {
    // FOR KEY SHARE, the lock a foreign key takes: it keeps the row from being deleted and lets renames and
    // renumbering go (they wait only when they change a unique column, as they would for the opportunity's own write).
    const row = await this.db.selectFrom('crm_stages').selectAll().where('company_id', '=', companyId).where('id', '=', id).forKeyShare().executeTakeFirst();
    return row ? toStage(row) : null;
  }

  async findByIdForUpdate(companyId: string, id: string) {
    return findCompanyRecord(this.db, 'crm_stages', companyId, id, toStage, 'forUpdate');
  }

  async companyOf(id: string) {
    const row = await this.db.selectFrom('crm_stages').select('company_id').where('id', '=', id).executeTakeFirst();
    return row?.company_id ?? null;
  }

  async saveFunnel(companyId: string, stages: readonly FunnelStage[]) {
    const keep = stages.map((s) => s.id);
    let remove = this.db.deleteFrom('crm_stages').where('company_id', '=', companyId);
    if (keep.length > 0) remove = remove.where('id', 'not in', keep);
    await remove.execute();
    if (stages.length === 0) return;
    // One statement: the deferrable position constraint is checked at its end, so positions may swap.
    await this.db
      .insertInto('crm_stages')
      .values(
        stages.map((s) => ({ ...columnsOf(s, ['id', 'name', 'position', 'isWon', 'isLost', 'winProbability', 'color', 'createdAt', 'updatedAt']), company_id: companyId })),
      )
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          position: eb.ref('excluded.position'),
          is_won: eb.ref('excluded.is_won'),
          is_lost: eb.ref('excluded.is_lost'),
          win_probability: eb.ref('excluded.win_probability'),
          color: eb.ref('excluded.color'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }

  async isUsed(companyId: string, stageId: string) {
    const row = await this.db
      .selectFrom('crm_opportunities')
      .select('id')
      .where('company_id', '=', companyId)
      .where('stage_id', '=', stageId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}

function toProduct(row: Selectable<CrmProductsTable>): Product {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'name', 'sku', 'unit', 'description', 'active']),
    price: Number(row.price_cents),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export class KyselyProductRepository implements ProductRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(product: Product): Promise<ProductConflict | null> {
    const inserted = await this.db
      .insertInto('crm_products')
      .values({ ...columnsOf(product, ['id', 'companyId', 'name', 'sku', 'unit', 'description', 'active', 'createdAt', 'updatedAt']), price_cents: product.price })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return null;
    const sameName = await this.db
      .selectFrom('crm_products')
      .select('id')
      .where('company_id', '=', product.companyId)
      .where(sql<string>`lower(name)`, '=', product.name.toLowerCase())
      .executeTakeFirst();
    return sameName ? 'name' : 'sku';
  }

  async findManyByIds(companyId: string, ids: readonly string[]) {
    return findCompanyRecords(this.db, 'crm_products', companyId, ids, toProduct);
  }

  async list(companyId: string, filter: ProductFilter, page: PageRequest): Promise<Page<Product>> {
    let query = this.db.selectFrom('crm_products').where('company_id', '=', companyId);
    if (filter.active !== undefined) query = query.where('active', '=', filter.active);
    if (filter.q) {
      const pattern = `%${escapeLike(filter.q)}%`;
      query = query.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('sku', 'ilike', pattern)]));
    }
    return readPage(query, (q) => q.selectAll().orderBy(sql`lower(name)`).orderBy('id'), page, (rows) => rows.map(toProduct));
  }
}

function toOpportunity(row: Selectable<CrmOpportunitiesTable>): Opportunity {
  return {
    ...fieldsOf(row, ['id', 'company_id', 'title', 'stage_id', 'client_id', 'assignee_id', 'ticket_id', 'description', 'expected_close_date', 'lost_reason']),
    value: row.value_cents === null ? null : Number(row.value_cents),
    productsTotal: Number(row.products_total_cents),
    status: row.status as OpportunityStatus,
    closedAt: date(row.closed_at),
    products: row.products as OpportunityProduct[],
    deletedAt: date(row.deleted_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function opportunityRow(o: Opportunity) {
  return {
    ...columnsOf(o, [
      'id', 'companyId', 'title', 'status', 'stageId', 'clientId', 'assigneeId', 'ticketId', 'description', 'expectedCloseDate', 'lostReason', 'closedAt', 'deletedAt', 'createdAt', 'updatedAt',
    ]),
    value_cents: o.value,
    products_total_cents: o.productsTotal,
    products: JSON.stringify(o.products),
  };
}

/** The key of unassigned opportunities in `crm_opportunity_totals`. */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

type OpportunityQuery = SelectQueryBuilder<Database, 'crm_opportunities', object>;

function filtered(db: Kysely<Database>, companyId: string, filter: OpportunityFilter): OpportunityQuery {
  let query = db.selectFrom('crm_opportunities').where('company_id', '=', companyId).where('deleted_at', 'is', null) as OpportunityQuery;
  if (filter.status) query = query.where('status', '=', filter.status);
  else if (!filter.includeClosed) query = query.where('status', '=', 'open');
  if (filter.stageId) query = query.where('stage_id', '=', filter.stageId);
  if (filter.assigneeId === null) query = query.where('assignee_id', 'is', null);
  else if (filter.assigneeId !== undefined) query = query.where('assignee_id', '=', filter.assigneeId);
  if (filter.clientId) query = query.where('client_id', '=', filter.clientId);
  if (filter.q) query = query.where('title', 'ilike', `%${escapeLike(filter.q)}%`);
  return query;
}

export class KyselyOpportunityRepository implements OpportunityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(o: Opportunity) {
    await this.db.insertInto('crm_opportunities').values(opportunityRow(o)).execute();
  }

  async update(o: Opportunity) {
    await updateCompanyRow(this.db, 'crm_opportunities', opportunityRow(o));
  }

  async findById(companyId: string, id: string) {
    const row = await this.db
      .selectFrom('crm_opportunities')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? toOpportunity(row) : null;
  }

  async findManyByIds(companyId: string, ids: readonly string[]) {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('crm_opportunities')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', sql<string>`ANY(${[...new Set(ids)]}::uuid[])`)
      .where('deleted_at', 'is', null)
      .execute();
    return rows.map(toOpportunity);
  }

  async findByIdForUpdate(companyId: string, id: string) {
    return findCompanyRecord(this.db, 'crm_opportunities', companyId, id, toOpportunity, 'forUpdate');
  }

  async list(companyId: string, filter: OpportunityFilter, page: PageRequest) {
    const query = filtered(this.db, companyId, filter);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(pageOffset(page)).execute(),
      this.count(companyId, filter),
    ]);
    return toPage(rows.map(toOpportunity), total.count, page);
  }

  async count(companyId: string, filter: OpportunityFilter): Promise<{ count: number; valueTotal: Cents }> {
    // Filters by stage, status and assignee read the totals the triggers keep; by client or title, the rows.
    if (!filter.clientId && !filter.q) {
      let totals = this.db.selectFrom('crm_opportunity_totals').where('company_id', '=', companyId);
      if (filter.status) totals = totals.where('status', '=', filter.status);
      else if (!filter.includeClosed) totals = totals.where('status', '=', 'open');
      if (filter.stageId) totals = totals.where('stage_id', '=', filter.stageId);
      if (filter.assigneeId !== undefined) totals = totals.where('assignee_key', '=', filter.assigneeId ?? NIL_UUID);
      const row = await totals
        .select([sql<number>`coalesce(sum(opportunities), 0)::bigint`.as('n'), sql<number>`coalesce(sum(value_cents), 0)::bigint`.as('total')])
        .executeTakeFirstOrThrow();
      return { count: Number(row.n), valueTotal: Number(row.total) };
    }
    const row = await filtered(this.db, companyId, filter)
      .select((eb) => [eb.fn.countAll<number>().as('n'), sql<number>`coalesce(sum(effective_value_cents), 0)::bigint`.as('total')])
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), valueTotal: Number(row.total) };
  }

  async appendHistory(companyId: string, entries: readonly OpportunityHistoryEntry[]) {
    if (entries.length === 0) return;
    await this.db
      .insertInto('crm_opportunity_history')
      .values(
        entries.map((e) => ({
          ...columnsOf(e, ['id', 'opportunityId', 'at', 'kind']),
          company_id: companyId,
          actor: JSON.stringify(e.actor),
          changes: JSON.stringify(e.changes),
        })),
      )
      .execute();
  }

  async history(companyId: string, opportunityId: string, limit: number): Promise<OpportunityHistoryEntry[]> {
    const rows = await this.db
      .selectFrom('crm_opportunity_history')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('opportunity_id', '=', opportunityId)
      .orderBy('at', 'desc')
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      opportunityId: r.opportunity_id,
      at: new Date(r.at),
      actor: r.actor as EventActor,
      kind: r.kind as OpportunityHistoryEntry['kind'],
      changes: r.changes as OpportunityHistoryEntry['changes'],
    }));
  }
}

/** The CRM area's Kysely repositories over one connection or transaction. */
export function kyselyCrmRepositories(db: Kysely<Database>): CrmRepositories {
  return {
    funnelStages: new KyselyFunnelStageRepository(db),
    products: new KyselyProductRepository(db),
    opportunities: new KyselyOpportunityRepository(db),
  };
}
