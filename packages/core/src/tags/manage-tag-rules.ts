import type { Clock } from '../shared/clock.js';
import { assertBelowCompanyLimit, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { checkRuleMatch, matchingRules, MAX_TAG_RULES, type TagRule, type TagRuleMatchType, type TagRuleScope } from './tag-rule.js';
import type { TagRepositories } from './tag-repositories.js';
import type { SetorRepositories } from '../setores/index.js';
import type { TagRuleCache } from './tag-rule-cache.js';
import type { CompanyRepositories } from '../companies/index.js';

/** A rule's writable fields. */
export interface TagRuleInput {
  tagId?: string;
  matchType?: TagRuleMatchType;
  matchValue?: string;
  caseSensitive?: boolean;
  scope?: TagRuleScope;
  setorIds?: string[];
  enabled?: boolean;
}

/** Rule CRUD and the dry run (GET, POST /v1/tag-rules; PATCH, DELETE /v1/tag-rules/:id; POST /v1/tag-rules/test). */
export class ManageTagRules {
  constructor(
    private readonly uow: UnitOfWork<TagRepositories & CompanyRepositories>,
    private readonly repos: Repositories<TagRepositories & SetorRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    /** The inbound messages' cache of enabled rules: a write drops the company's entry once committed. */
    private readonly cache: TagRuleCache | null = null,
  ) {}

  private async checkSetores(companyId: string, setorIds: readonly string[] | undefined): Promise<void> {
    if (!setorIds || setorIds.length === 0) return;
    const unknown: string[] = [];
    for (const id of new Set(setorIds)) if (!(await this.repos.setores.findByIdInCompany(companyId, id))) unknown.push(id);
    if (unknown.length > 0) throw new NotFoundError('Box', { setor_ids: unknown });
  }

  async create(companyId: string, input: Required<Pick<TagRuleInput, 'tagId' | 'matchType' | 'matchValue'>> & TagRuleInput): Promise<TagRule> {
    checkRuleMatch(input.matchType, input.matchValue, input.caseSensitive ?? false);
    await this.checkSetores(companyId, input.setorIds);
    const created = await this.uow.transaction(async (repos) => {
      // The company row serialises the rules' count (the limit) and orders the tag's check with its deletion, which
      // takes the same lock: a rule either sees its tag deleted (404) or is written before the tag's rules are removed.
      await repos.companies.findByIdForUpdate(companyId);
      if (!(await repos.tags.findById(companyId, input.tagId))) throw new NotFoundError('Tag', { tag_id: input.tagId });
      assertBelowCompanyLimit(await repos.tagRules.count(companyId), MAX_TAG_RULES, 'tag rules');
      const now = this.clock.now();
      const rule: TagRule = {
        id: this.ids.newId(),
        companyId,
        tagId: input.tagId,
        matchType: input.matchType,
        matchValue: input.matchValue,
        caseSensitive: input.caseSensitive ?? false,
        scope: input.scope ?? 'contact',
        setorIds: [...new Set(input.setorIds ?? [])],
        enabled: input.enabled ?? true,
        createdAt: now,
        updatedAt: now,
      };
      await repos.tagRules.insert(rule);
      return rule;
    });
    this.cache?.invalidate(companyId);
    return created;
  }

  list(companyId: string, page: PageRequest): Promise<Page<TagRule>> {
    return this.repos.tagRules.list(companyId, page);
  }

  async update(companyId: string, id: string, input: TagRuleInput): Promise<TagRule> {
    await this.checkSetores(companyId, input.setorIds);
    const updated = await this.uow.transaction(async (repos) => {
      // The company row serialises the company's rule writes, as in create: concurrent edits of other fields apply one
      // after the other (the row is written whole), and a new tag's check is ordered with that tag's deletion.
      await repos.companies.findByIdForUpdate(companyId);
      const rule = await repos.tagRules.findById(companyId, id);
      if (!rule) throw new NotFoundError('Tag rule');
      if (input.tagId !== undefined && !(await repos.tags.findById(companyId, input.tagId))) throw new NotFoundError('Tag', { tag_id: input.tagId });
      const next: TagRule = {
        ...rule,
        tagId: input.tagId ?? rule.tagId,
        matchType: input.matchType ?? rule.matchType,
        matchValue: input.matchValue ?? rule.matchValue,
        caseSensitive: input.caseSensitive ?? rule.caseSensitive,
        scope: input.scope ?? rule.scope,
        setorIds: input.setorIds ? [...new Set(input.setorIds)] : rule.setorIds,
        enabled: input.enabled ?? rule.enabled,
        updatedAt: this.clock.now(),
      };
      checkRuleMatch(next.matchType, next.matchValue, next.caseSensitive);
      await repos.tagRules.update(next);
      return next;
    });
    this.cache?.invalidate(companyId);
    return updated;
  }

  async delete(companyId: string, id: string): Promise<void> {
    const deleted = await this.repos.tagRules.delete(companyId, id);
    this.cache?.invalidate(companyId);
    if (!deleted) throw new NotFoundError('Tag rule');
  }

  /** The dry run: which enabled rules would match `text` on setor `setorId` (nothing is tagged). */
  async test(companyId: string, text: string, setorId: string | null): Promise<TagRule[]> {
    if (typeof text !== 'string') throw new ValidationError('text is required', { field: 'text' });
    await this.checkSetores(companyId, setorId ? [setorId] : undefined);
    return matchingRules(await this.repos.tagRules.listEnabled(companyId), text, setorId);
  }
}
