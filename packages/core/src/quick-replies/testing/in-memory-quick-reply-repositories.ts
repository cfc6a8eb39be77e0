import type { QuickReply, QuickReplyFilters, QuickReplyRepository } from '../index.js';
import type { PageRequest } from '../../shared/pagination.js';
import { paginate, type InMemoryStore } from '../../shared/testing/in-memory-store.js';
import type { QuickReplyRepositories } from '../quick-reply-repositories.js';

export class InMemoryQuickReplyRepository implements QuickReplyRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get replies() {
    return this.store.table('quickReplies', () => new Map<string, QuickReply>());
  }
  private holder(reply: QuickReply) {
    return [...this.replies.values()].find((r) => r.companyId === reply.companyId && r.setorId === reply.setorId && r.shortcut === reply.shortcut);
  }
  async insertUnique(reply: QuickReply) {
    const existing = this.holder(reply);
    if (existing) return structuredClone(existing);
    this.replies.set(reply.id, structuredClone(reply));
    return null;
  }
  async update(reply: QuickReply) {
    const existing = this.holder(reply);
    if (existing && existing.id !== reply.id) return structuredClone(existing);
    this.replies.set(reply.id, structuredClone(reply));
    return null;
  }
  async findById(companyId: string, id: string) {
    const reply = this.replies.get(id);
    return reply && reply.companyId === companyId ? structuredClone(reply) : null;
  }
  async companyOf(id: string) {
    return this.replies.get(id)?.companyId ?? null;
  }
  async list(companyId: string, filters: QuickReplyFilters, page: PageRequest) {
    const q = filters.q?.toLowerCase();
    const all = [...this.replies.values()]
      .filter((r) => r.companyId === companyId)
      .filter((r) => filters.setorId === undefined || r.setorId === null || r.setorId === filters.setorId)
      .filter((r) => !q || [r.shortcut, r.title, r.text ?? ''].some((v) => v.toLowerCase().includes(q)))
      .sort((a, b) => (a.shortcut < b.shortcut ? -1 : a.shortcut > b.shortcut ? 1 : 0) || (a.setorId === null ? -1 : 0) - (b.setorId === null ? -1 : 0) || (a.id < b.id ? -1 : 1))
      .map((r) => structuredClone(r));
    return paginate(all, page);
  }
  async count(companyId: string) {
    return [...this.replies.values()].filter((r) => r.companyId === companyId).length;
  }
  async delete(companyId: string, id: string) {
    const reply = this.replies.get(id);
    if (!reply || reply.companyId !== companyId) return false;
    this.replies.delete(id);
    return true;
  }
}

/** The quick-replies area's fakes over one store. */
export function inMemoryQuickReplyRepositories(store: InMemoryStore): QuickReplyRepositories {
  return { quickReplies: new InMemoryQuickReplyRepository(store) };
}
