import type { Page, PageRequest } from '../../shared/pagination.js';
import { InMemoryCompanyRecords } from '../../shared/testing/in-memory-company-records.js';
import { paginate, type InMemoryStore } from '../../shared/testing/in-memory-store.js';
import type { CrmRepositories, FunnelStageRepository, OpportunityFilter, OpportunityRepository, ProductConflict, ProductRepository } from '../crm-repositories.js';
import type { FunnelStage } from '../funnel-stage.js';
import { effectiveValue, type Opportunity, type OpportunityHistoryEntry } from '../opportunity.js';
import type { Product, ProductFilter } from '../product.js';

// Tables are looked up on every call: a rolled-back transaction replaces the store's maps.
const stages = (store: InMemoryStore) => store.table('crmStages', () => new Map<string, FunnelStage>());
const products = (store: InMemoryStore) => store.table('crmProducts', () => new Map<string, Product>());
const opportunities = (store: InMemoryStore) => store.table('crmOpportunities', () => new Map<string, Opportunity>());
const history = (store: InMemoryStore) => store.table('crmOpportunityHistory', () => [] as (OpportunityHistoryEntry & { companyId: string })[]);

export class InMemoryFunnelStageRepository implements FunnelStageRepository {
  constructor(private readonly store: InMemoryStore) {}
  async listByCompany(companyId: string) {
    return [...stages(this.store).values()].filter((s) => s.companyId === companyId).sort((a, b) => a.position - b.position).map((s) => structuredClone(s));
  }
  async findById(companyId: string, id: string) {
    const found = stages(this.store).get(id);
    return found && found.companyId === companyId ? structuredClone(found) : null;
  }
  async findByIdForUse(companyId: string, id: string) {
    return this.findById(companyId, id);
  }
  async findByIdForUpdate(companyId: string, id: string) {
    return this.findById(companyId, id);
  }
  async companyOf(id: string) {
    return stages(this.store).get(id)?.companyId ?? null;
  }
  async saveFunnel(companyId: string, list: readonly FunnelStage[]) {
    const keep = new Set(list.map((s) => s.id));
    for (const [id, s] of stages(this.store)) if (s.companyId === companyId && !keep.has(id)) stages(this.store).delete(id);
    for (const s of list) stages(this.store).set(s.id, structuredClone(s));
  }
  async isUsed(companyId: string, stageId: string) {
    return [...opportunities(this.store).values()].some((o) => o.companyId === companyId && o.stageId === stageId);
  }
}

const lower = (value: string | null) => value?.toLowerCase() ?? null;

export class InMemoryProductRepository implements ProductRepository {
  constructor(private readonly store: InMemoryStore) {}
  async insert(product: Product): Promise<ProductConflict | null> {
    const mine = [...products(this.store).values()].filter((p) => p.companyId === product.companyId);
    if (mine.some((p) => lower(p.name) === lower(product.name))) return 'name';
    if (product.sku && mine.some((p) => lower(p.sku) === lower(product.sku))) return 'sku';
    products(this.store).set(product.id, structuredClone(product));
    return null;
  }
  async findManyByIds(companyId: string, ids: readonly string[]) {
    return ids.map((id) => products(this.store).get(id)).filter((p): p is Product => !!p && p.companyId === companyId).map((p) => structuredClone(p));
  }
  async list(companyId: string, filter: ProductFilter, page: PageRequest): Promise<Page<Product>> {
    const q = filter.q?.toLowerCase();
    const all = [...products(this.store).values()]
      .filter((p) => p.companyId === companyId && (filter.active === undefined || p.active === filter.active))
      .filter((p) => !q || p.name.toLowerCase().includes(q) || (p.sku ?? '').toLowerCase().includes(q))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    return paginate(all.map((p) => structuredClone(p)), page);
  }
}

/** Whether an opportunity matches a list filter (shared by list and count). */
export function matchesOpportunityFilter(o: Opportunity, filter: OpportunityFilter): boolean {
  if (o.deletedAt) return false;
  if (filter.status) {
    if (o.status !== filter.status) return false;
  } else if (!filter.includeClosed && o.status !== 'open') return false;
  if (filter.stageId && o.stageId !== filter.stageId) return false;
  if (filter.assigneeId !== undefined && o.assigneeId !== filter.assigneeId) return false;
  if (filter.clientId && o.clientId !== filter.clientId) return false;
  if (filter.q && !o.title.toLowerCase().includes(filter.q.toLowerCase())) return false;
  return true;
}

export class InMemoryOpportunityRepository extends InMemoryCompanyRecords<Opportunity> implements OpportunityRepository {
  constructor(store: InMemoryStore) {
    super(store, opportunities);
  }
  /** A deleted opportunity is not found (`findByIdForUpdate` still finds it). */
  override async findById(companyId: string, id: string) {
    const found = await super.findById(companyId, id);
    return found && !found.deletedAt ? found : null;
  }
  override async findByIdForUpdate(companyId: string, id: string) {
    return super.findById(companyId, id);
  }
  async findManyByIds(companyId: string, ids: readonly string[]) {
    const found = await Promise.all([...new Set(ids)].map((id) => this.findById(companyId, id)));
    return found.filter((o): o is Opportunity => o !== null);
  }
  private matching(companyId: string, filter: OpportunityFilter) {
    return [...opportunities(this.store).values()].filter((o) => o.companyId === companyId && matchesOpportunityFilter(o, filter));
  }
  async list(companyId: string, filter: OpportunityFilter, page: PageRequest) {
    const all = this.matching(companyId, filter).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
    return paginate(all.map((o) => structuredClone(o)), page);
  }
  async count(companyId: string, filter: OpportunityFilter) {
    const all = this.matching(companyId, filter);
    return { count: all.length, valueTotal: all.reduce((sum, o) => sum + effectiveValue(o), 0) };
  }
  async appendHistory(companyId: string, entries: readonly OpportunityHistoryEntry[]) {
    history(this.store).push(...entries.map((e) => ({ ...structuredClone(e), companyId })));
  }
  async history(companyId: string, opportunityId: string, limit: number) {
    return history(this.store)
      .filter((e) => e.companyId === companyId && e.opportunityId === opportunityId)
      .map(({ companyId: _c, ...e }, i) => ({ e: structuredClone(e), i }))
      .sort((a, b) => b.e.at.getTime() - a.e.at.getTime() || b.i - a.i)
      .slice(0, limit)
      .map(({ e }) => e);
  }
}

/** The CRM area's fakes over one store. */
export function inMemoryCrmRepositories(store: InMemoryStore): CrmRepositories {
  return {
    funnelStages: new InMemoryFunnelStageRepository(store),
    products: new InMemoryProductRepository(store),
    opportunities: new InMemoryOpportunityRepository(store),
  };
}
