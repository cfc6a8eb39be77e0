import type { Tag, TagRepository, TagRule, TagRuleRepository } from '../index.js';
import type { PageRequest } from '../../shared/pagination.js';
import { paginate, type InMemoryStore } from '../../shared/testing/in-memory-store.js';
import type { TagRepositories } from '../tag-repositories.js';

type Link = { contactId: string; tagId: string; createdAt: Date };

export class InMemoryTagRepository implements TagRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get tags() {
    return this.store.table('tags', () => new Map<string, Tag>());
  }
  private get links() {
    return this.store.table('contactTags', () => [] as Link[]);
  }
  private get rules() {
    return this.store.table('tagRules', () => new Map<string, TagRule>());
  }
  private named(companyId: string, name: string): Tag | undefined {
    return [...this.tags.values()].find((t) => t.companyId === companyId && t.name.toLowerCase() === name.toLowerCase());
  }
  async insert(tag: Tag) {
    this.tags.set(tag.id, structuredClone(tag));
  }
  async insertUnique(tag: Tag) {
    const existing = this.named(tag.companyId, tag.name);
    if (existing) return structuredClone(existing);
    this.tags.set(tag.id, structuredClone(tag));
    return null;
  }
  async update(tag: Tag) {
    const existing = this.named(tag.companyId, tag.name);
    if (existing && existing.id !== tag.id) return structuredClone(existing);
    this.tags.set(tag.id, structuredClone(tag));
    return null;
  }
  async findById(companyId: string, id: string) {
    const tag = this.tags.get(id);
    return tag && tag.companyId === companyId ? structuredClone(tag) : null;
  }
  async findManyByIds(companyId: string, ids: readonly string[]) {
    const wanted = new Set(ids);
    return [...this.tags.values()].filter((t) => t.companyId === companyId && wanted.has(t.id)).map((t) => structuredClone(t));
  }
  async list(companyId: string, q: string | undefined, page: PageRequest) {
    const all = [...this.tags.values()]
      .filter((t) => t.companyId === companyId && (!q || t.name.toLowerCase().includes(q.toLowerCase())))
      .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || (a.id < b.id ? -1 : 1))
      .map((t) => structuredClone(t));
    return paginate(all, page);
  }
  async count(companyId: string) {
    return [...this.tags.values()].filter((t) => t.companyId === companyId).length;
  }
  async delete(companyId: string, id: string) {
    const tag = this.tags.get(id);
    if (!tag || tag.companyId !== companyId) return { contacts: 0, rules: 0 };
    const contacts = this.links.filter((l) => l.tagId === id).length;
    this.store.extra.set('contactTags', this.links.filter((l) => l.tagId !== id));
    let rules = 0;
    for (const rule of [...this.rules.values()]) {
      if (rule.tagId === id) {
        this.rules.delete(rule.id);
        rules += 1;
      }
    }
    this.tags.delete(id);
    return { contacts, rules };
  }
  async tagContact(contactId: string, tagIds: readonly string[], now: Date) {
    const added: string[] = [];
    for (const tagId of new Set(tagIds)) {
      if (this.links.some((l) => l.contactId === contactId && l.tagId === tagId)) continue;
      this.links.push({ contactId, tagId, createdAt: now });
      added.push(tagId);
    }
    return added;
  }
  async linkContactTags(links: readonly { contactId: string; tagId: string }[], now: Date) {
    for (const link of links) await this.tagContact(link.contactId, [link.tagId], now);
  }
  async tagIdsOfContact(contactId: string) {
    return this.links.filter((l) => l.contactId === contactId).map((l) => l.tagId);
  }
}

export class InMemoryTagRuleRepository implements TagRuleRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get rules() {
    return this.store.table('tagRules', () => new Map<string, TagRule>());
  }
  private ofCompany(companyId: string) {
    return [...this.rules.values()].filter((r) => r.companyId === companyId).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  }
  async insert(rule: TagRule) {
    this.rules.set(rule.id, structuredClone(rule));
  }
  async update(rule: TagRule) {
    this.rules.set(rule.id, structuredClone(rule));
  }
  async delete(companyId: string, id: string) {
    const rule = this.rules.get(id);
    if (!rule || rule.companyId !== companyId) return false;
    this.rules.delete(id);
    return true;
  }
  async findById(companyId: string, id: string) {
    const rule = this.rules.get(id);
    return rule && rule.companyId === companyId ? structuredClone(rule) : null;
  }
  async list(companyId: string, page: PageRequest) {
    return paginate(this.ofCompany(companyId).map((r) => structuredClone(r)), page);
  }
  async listEnabled(companyId: string) {
    return this.ofCompany(companyId)
      .filter((r) => r.enabled)
      .map((r) => structuredClone(r));
  }
  async count(companyId: string) {
    return this.ofCompany(companyId).length;
  }
}

/** The tags area's fakes over one store (contact links share the store's `contactTags` table with the contacts fakes). */
export function inMemoryTagRepositories(store: InMemoryStore): TagRepositories {
  return { tags: new InMemoryTagRepository(store), tagRules: new InMemoryTagRuleRepository(store) };
}
