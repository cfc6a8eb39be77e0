import type { UsageRepositories, UsageRepository } from '../index.js';
import { storeTable, type InMemoryStore } from '../../shared/testing/index.js';

declare module '../../shared/testing/in-memory-store.js' {
  interface InMemoryStore {
    /** `company:<id>:<day>` and `setor:<id>:<day>` counters. */
    usage: Map<string, number>;
  }
}
storeTable('usage', () => new Map<string, number>());

export class InMemoryUsageRepository implements UsageRepository {
  constructor(private readonly store: InMemoryStore) {}
  private add(key: string, count: number) {
    this.store.usage.set(key, Math.max(0, (this.store.usage.get(key) ?? 0) + count));
  }
  async addSent(companyId: string, setorId: string | null, day: string, count: number) {
    this.add(`company:${companyId}:${day}`, count);
    if (setorId) this.add(`setor:${setorId}:${day}`, count);
  }
  async addSentAll(entries: readonly { companyId: string; setorId: string | null; day: string; count: number }[]) {
    for (const e of entries) await this.addSent(e.companyId, e.setorId, e.day, e.count);
  }
  async sentByCompany(companyId: string, day: string) {
    return this.store.usage.get(`company:${companyId}:${day}`) ?? 0;
  }
  async sentBySetor(setorId: string, day: string) {
    return this.store.usage.get(`setor:${setorId}:${day}`) ?? 0;
  }
  async setorHistory(setorId: string, beforeDay: string) {
    let activeDays = 0;
    let totalSent = 0;
    for (const [key, sent] of this.store.usage) {
      const [kind, id, day] = key.split(':');
      if (kind === 'setor' && id === setorId && day !== undefined && day < beforeDay && sent > 0) {
        activeDays += 1;
        totalSent += sent;
      }
    }
    return { activeDays, totalSent };
  }
}

export function inMemoryUsageRepositories(store: InMemoryStore): UsageRepositories {
  return { usage: new InMemoryUsageRepository(store) };
}
