import type { HealthCheckEntry, InstanceHealth } from '../index.js';
import type { ChannelHealthRepository } from '../index.js';
import type { InMemoryStore } from '../../shared/testing/in-memory-store.js';

export class InMemoryChannelHealthRepository implements ChannelHealthRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get current() {
    return this.store.table('channelHealth', () => new Map<string, InstanceHealth>());
  }
  private get history() {
    return this.store.table('channelHealthHistory', () => [] as HealthCheckEntry[]);
  }
  async save(health: InstanceHealth) {
    this.current.set(health.instanceId, structuredClone(health));
  }
  async findByInstance(instanceId: string) {
    const found = this.current.get(instanceId);
    return found ? structuredClone(found) : null;
  }
  async listByCompany(companyId: string) {
    return [...this.current.values()].filter((h) => h.companyId === companyId).map((h) => structuredClone(h));
  }
  async appendHistory(entry: HealthCheckEntry) {
    this.history.push(structuredClone(entry));
  }
  async historyOfCompany(companyId: string, since: Date) {
    return this.history
      .filter((h) => h.companyId === companyId && h.checkedAt.getTime() >= since.getTime())
      .sort((a, b) => a.checkedAt.getTime() - b.checkedAt.getTime())
      .map((h) => structuredClone(h));
  }
  async purgeHistory(before: Date) {
    const kept = this.history.filter((h) => h.checkedAt.getTime() >= before.getTime());
    const removed = this.history.length - kept.length;
    this.history.splice(0, this.history.length, ...kept);
    return removed;
  }
}
