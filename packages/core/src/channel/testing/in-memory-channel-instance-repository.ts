import type { ChannelInstance } from '../index.js';
import type { ChannelInstanceRepository } from '../index.js';
import type { InMemoryStore } from '../../shared/testing/in-memory-store.js';
import '../../setores/testing/index.js'; // store.setores

export class InMemoryChannelInstanceRepository implements ChannelInstanceRepository {
  constructor(private readonly store: InMemoryStore) {}
  private get rows() {
    return this.store.table('channelInstances', () => new Map<string, ChannelInstance>());
  }
  async insert(instance: ChannelInstance) {
    // Mirrors the UNIQUE constraints of the table: one instance per id and per setor.
    if (this.rows.has(instance.id) || [...this.rows.values()].some((i) => i.setorId === instance.setorId)) {
      throw new Error(`duplicate channel instance for box ${instance.setorId}`);
    }
    this.rows.set(instance.id, structuredClone(instance));
  }
  async update(instance: ChannelInstance) {
    this.rows.set(instance.id, structuredClone(instance));
  }
  async findByIdInCompany(companyId: string, id: string) {
    const found = this.rows.get(id);
    return found && found.companyId === companyId ? structuredClone(found) : null;
  }
  async findBySetor(setorId: string) {
    const found = [...this.rows.values()].find((i) => i.setorId === setorId);
    return found ? structuredClone(found) : null;
  }
  async findBySetorForUpdate(setorId: string) {
    return this.findBySetor(setorId);
  }
  async listByCompany(companyId: string) {
    return [...this.rows.values()].filter((i) => i.companyId === companyId).map((i) => structuredClone(i));
  }
  async connectedSetorIds(companyId: string) {
    const setores = [...this.store.setores.values()]
      .filter((s) => s.companyId === companyId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
    const connected = new Set([...this.rows.values()].filter((i) => i.status === 'connected').map((i) => i.setorId));
    return setores.filter((s) => connected.has(s.id)).map((s) => s.id);
  }
  async all() {
    return [...this.rows.values()].map((i) => structuredClone(i));
  }
}
