import type { Page, PageRequest } from '../shared/pagination.js';
import type { Cents } from '../shared/money.js';
import type { FunnelStage } from './funnel-stage.js';
import type { Opportunity, OpportunityHistoryEntry, OpportunityStatus } from './opportunity.js';
import type { Product, ProductFilter } from './product.js';

/** A company's funnel stages. Reads are scoped by company. */
export interface FunnelStageRepository {
  /** By position. */
  listByCompany(companyId: string): Promise<FunnelStage[]>;
  findById(companyId: string, id: string): Promise<FunnelStage | null>;
  /**
   * The stage an opportunity is about to be put in, read with a lock that keeps it from being deleted until the
   * transaction ends (edits of the stage still go): a concurrent delete either finishes first (null here) or waits
   * and then sees the opportunity in it.
   */
  findByIdForUse(companyId: string, id: string): Promise<FunnelStage | null>;
  /** The stage with its row locked until the transaction ends (a delete waits for the uses above). */
  findByIdForUpdate(companyId: string, id: string): Promise<FunnelStage | null>;
  /** The company of a stage (the operator's routes name stages by id alone); null when unknown. */
  companyOf(id: string): Promise<string | null>;
  /**
   * Replaces the funnel by `stages`: inserts new ones, updates changed ones and deletes those
   * left out (positions are unique, so the adapter writes them in a way that never collides).
   */
  saveFunnel(companyId: string, stages: readonly FunnelStage[]): Promise<void>;
  /** Whether any opportunity, deleted ones included, is or was in the stage (a used stage is never deleted). */
  isUsed(companyId: string, stageId: string): Promise<boolean>;
}
export const FunnelStageRepository = Symbol.for('carteiro.FunnelStageRepository');

/** A duplicate name or SKU in the catalogue. */
export type ProductConflict = 'name' | 'sku';

/** The catalogue. Names and SKUs are unique per company, case-insensitive. */
export interface ProductRepository {
  /** Inserts, or answers which unique field is already taken (nothing is written then). */
  insert(product: Product): Promise<ProductConflict | null>;
  findManyByIds(companyId: string, ids: readonly string[]): Promise<Product[]>;
  /** By name. */
  list(companyId: string, filter: ProductFilter, page: PageRequest): Promise<Page<Product>>;
}
export const ProductRepository = Symbol.for('carteiro.ProductRepository');

/** Filters of the opportunity list and count. */
export interface OpportunityFilter {
  stageId?: string;
  /** `null`: unassigned ones. */
  assigneeId?: string | null;
  clientId?: string;
  /** Without `status`, closed ones are left out unless this is true. */
  includeClosed?: boolean;
  status?: OpportunityStatus;
  /** Part of the title, case-insensitive. */
  q?: string;
}

/** Opportunities and their history. Deleted ones read as missing. */
export interface OpportunityRepository {
  insert(opportunity: Opportunity): Promise<void>;
  update(opportunity: Opportunity): Promise<void>;
  findById(companyId: string, id: string): Promise<Opportunity | null>;
  /** Those of the ids that are the company's and not deleted, in no particular order (one round trip for a ticket's links). */
  findManyByIds(companyId: string, ids: readonly string[]): Promise<Opportunity[]>;
  /** The opportunity, its row locked until the transaction ends (deleted ones too: the decider refuses them). */
  findByIdForUpdate(companyId: string, id: string): Promise<Opportunity | null>;
  /** Newest first. */
  list(companyId: string, filter: OpportunityFilter, page: PageRequest): Promise<Page<Opportunity>>;
  /** How many match and the sum of their values (`value`, else `products_total`). */
  count(companyId: string, filter: OpportunityFilter): Promise<{ count: number; valueTotal: Cents }>;
  appendHistory(companyId: string, entries: readonly OpportunityHistoryEntry[]): Promise<void>;
  /** The last `limit` entries, newest first. */
  history(companyId: string, opportunityId: string, limit: number): Promise<OpportunityHistoryEntry[]>;
}
export const OpportunityRepository = Symbol.for('carteiro.OpportunityRepository');

/** The CRM area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface CrmRepositories {
  funnelStages: FunnelStageRepository;
  products: ProductRepository;
  opportunities: OpportunityRepository;
}
