import type { Page, PageRequest } from '../shared/pagination.js';
import type { TagRule } from './tag-rule.js';

/** Stores auto-tagging rules. */
export interface TagRuleRepository {
  insert(rule: TagRule): Promise<void>;
  update(rule: TagRule): Promise<void>;
  delete(companyId: string, id: string): Promise<boolean>;
  findById(companyId: string, id: string): Promise<TagRule | null>;
  /** A page of the company's rules, oldest first. */
  list(companyId: string, page: PageRequest): Promise<Page<TagRule>>;
  /** Every enabled rule of the company, oldest first (what inbound messages run). */
  listEnabled(companyId: string): Promise<TagRule[]>;
  count(companyId: string): Promise<number>;
}
export const TagRuleRepository = Symbol.for('carteiro.TagRuleRepository');
