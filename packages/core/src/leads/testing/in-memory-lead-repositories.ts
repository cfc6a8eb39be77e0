import type { PageRequest } from '../../shared/pagination.js';
import { paginate, type InMemoryStore } from '../../shared/testing/in-memory-store.js';
import type { Lead } from '../lead.js';
import type { ChannelCheck, ChannelCheckRepository, LeadRepositories, LeadSearchRepository } from '../lead-repositories.js';
import type { LeadSearch } from '../lead-search.js';

// Tables are looked up on every call: a rolled-back transaction replaces the store's maps.
const searches = (store: InMemoryStore) => store.table('leadSearches', () => new Map<string, LeadSearch>());
const items = (store: InMemoryStore) => store.table('leadSearchItems', () => new Map<string, Lead[]>());
const checks = (store: InMemoryStore) => store.table('leadChannelChecks', () => new Map<string, ChannelCheck>());

export class InMemoryLeadSearchRepository implements LeadSearchRepository {
  constructor(private readonly store: InMemoryStore) {}
  async insert(search: LeadSearch) {
    searches(this.store).set(search.id, structuredClone(search));
  }
  async findById(companyId: string, id: string, now: Date) {
    const found = searches(this.store).get(id);
    return found && found.companyId === companyId && found.expiresAt > now ? structuredClone(found) : null;
  }
  async findByIdForUpdate(id: string) {
    const found = searches(this.store).get(id);
    return found ? structuredClone(found) : null;
  }
  async update(search: LeadSearch) {
    searches(this.store).set(search.id, structuredClone(search));
  }
  async appendItems(searchId: string, from: number, leads: readonly Lead[]) {
    const list = items(this.store).get(searchId) ?? [];
    leads.forEach((lead, i) => {
      if (list[from + i] === undefined) list[from + i] = structuredClone(lead);
    });
    items(this.store).set(searchId, list);
  }
  async listItems(searchId: string, page: PageRequest) {
    return paginate(structuredClone(items(this.store).get(searchId) ?? []), page);
  }
  async countLiveSince(companyId: string, from: Date) {
    return [...searches(this.store).values()].filter((s) => s.companyId === companyId && s.mode === 'live' && s.createdAt >= from).length;
  }
  async listUnfinished(limit: number) {
    return [...searches(this.store).values()].filter((s) => s.status === 'queued' || s.status === 'running').slice(0, limit).map((s) => s.id);
  }
  async deleteExpired(now: Date) {
    let n = 0;
    for (const [id, s] of searches(this.store)) {
      if (s.expiresAt <= now) {
        searches(this.store).delete(id);
        items(this.store).delete(id);
        n++;
      }
    }
    return n;
  }
}

export class InMemoryChannelCheckRepository implements ChannelCheckRepository {
  constructor(private readonly store: InMemoryStore) {}
  async find(companyId: string, setorId: string, phones: readonly string[], since: Date) {
    return phones
      .map((p) => checks(this.store).get(`${companyId}:${setorId}:${p}`))
      .filter((c): c is ChannelCheck => c !== undefined && c.checkedAt >= since)
      .map((c) => structuredClone(c));
  }
  async save(companyId: string, setorId: string, list: readonly ChannelCheck[]) {
    for (const c of list) checks(this.store).set(`${companyId}:${setorId}:${c.phone}`, structuredClone(c));
  }
  async deleteCheckedBefore(before: Date) {
    let n = 0;
    for (const [key, c] of checks(this.store)) {
      if (c.checkedAt < before) {
        checks(this.store).delete(key);
        n++;
      }
    }
    return n;
  }
}

export function inMemoryLeadRepositories(store: InMemoryStore): LeadRepositories {
  return { leadSearches: new InMemoryLeadSearchRepository(store), channelChecks: new InMemoryChannelCheckRepository(store) };
}
