import type { Clock } from '../shared/clock.js';
import { assertBelowCompanyLimit, DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { MAX_TAGS, TAG_COLOR, type Tag } from './tag.js';
import type { TagRepositories } from './tag-repositories.js';
import type { TagRuleCache } from './tag-rule-cache.js';
import type { CompanyRepositories } from '../companies/index.js';

/** A tag's writable fields. */
export interface TagInput {
  name?: string;
  description?: string | null;
  color?: string | null;
}

function checkTagInput(input: TagInput): void {
  if (input.name !== undefined && (input.name.trim().length < 1 || input.name.trim().length > 50)) {
    throw new ValidationError('name must have 1-50 characters', { field: 'name' });
  }
  if (input.description != null && input.description.length > 200) throw new ValidationError('description must be at most 200 characters', { field: 'description' });
  if (input.color != null && !TAG_COLOR.test(input.color)) throw new ValidationError('color must be #RRGGBB', { field: 'color' });
}

const duplicate = (existing: Tag) => new DomainError('CONFLICT', `A tag named "${existing.name}" already exists`, { tag_id: existing.id });

/** Tag CRUD (GET, POST /v1/tags; PATCH, DELETE /v1/tags/:id): names unique ignoring case, deletes take their links and rules. */
export class ManageTags {
  constructor(
    private readonly uow: UnitOfWork<TagRepositories & CompanyRepositories>,
    private readonly repos: Repositories<TagRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    /** The inbound messages' cache of enabled rules: deleting a tag deletes its rules. */
    private readonly cache: TagRuleCache | null = null,
  ) {}

  async create(companyId: string, input: TagInput & { name: string }): Promise<Tag> {
    checkTagInput(input);
    return this.uow.transaction(async (repos) => {
      // The company row serialises the company's tag names: the limit's count sees every creation before it.
      await repos.companies.findByIdForUpdate(companyId);
      assertBelowCompanyLimit(await repos.tags.count(companyId), MAX_TAGS, 'tags');
      const now = this.clock.now();
      const tag: Tag = {
        id: this.ids.newId(),
        companyId,
        name: input.name.trim(),
        description: input.description ?? null,
        color: input.color ?? null,
        createdAt: now,
        updatedAt: now,
      };
      const existing = await repos.tags.insertUnique(tag);
      if (existing) throw duplicate(existing);
      return tag;
    });
  }

  list(companyId: string, q: string | undefined, page: PageRequest): Promise<Page<Tag>> {
    return this.repos.tags.list(companyId, q, page);
  }

  async update(companyId: string, id: string, input: TagInput): Promise<Tag> {
    checkTagInput(input);
    return this.uow.transaction(async (repos) => {
      // As creations: two renames to one name meet at the company row, so the second sees the first's name (409)
      // instead of failing on the unique index inside its transaction.
      await repos.companies.findByIdForUpdate(companyId);
      const tag = await repos.tags.findById(companyId, id);
      if (!tag) throw new NotFoundError('Tag');
      const next: Tag = {
        ...tag,
        name: input.name !== undefined ? input.name.trim() : tag.name,
        description: input.description !== undefined ? input.description : (tag.description ?? null),
        color: input.color !== undefined ? input.color : (tag.color ?? null),
        updatedAt: this.clock.now(),
      };
      const clash = await repos.tags.update(next);
      if (clash) throw duplicate(clash);
      return next;
    });
  }

  async delete(companyId: string, id: string): Promise<{ contacts: number; rules: number }> {
    const deleted = await this.uow.transaction(async (repos) => {
      // A rule being created for this tag holds the company row: its rule is removed with the tag, or it sees no tag.
      await repos.companies.findByIdForUpdate(companyId);
      const tag = await repos.tags.findById(companyId, id);
      if (!tag) throw new NotFoundError('Tag');
      return repos.tags.delete(companyId, id);
    });
    this.cache?.invalidate(companyId);
    return deleted;
  }
}
