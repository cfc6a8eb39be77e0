import type { Setor, SetorRepositories, SetorRepository } from '../index.js';
import type { PageRequest } from '../../shared/pagination.js';
import { byCreation, paginate, storeTable, type InMemoryStore } from '../../shared/testing/index.js';

declare module '../../shared/testing/in-memory-store.js' {
  interface InMemoryStore {
    setores: Map<string, Setor>;
  }
}
storeTable('setores', () => new Map<string, Setor>());

export class InMemorySetorRepository implements SetorRepository {
  constructor(private readonly store: InMemoryStore) {}
  async insert(setor: Setor) {
    this.store.setores.set(setor.id, structuredClone(setor));
  }
  async update(setor: Setor) {
    this.store.setores.set(setor.id, structuredClone(setor));
  }
  async findById(id: string) {
    const found = this.store.setores.get(id);
    return found ? structuredClone(found) : null;
  }
  /** The in-memory unit of work runs one transaction at a time: no lock to take. */
  findByIdLocking(id: string) {
    return this.findById(id);
  }
  async findAllLocking(ids: readonly string[]) {
    const found: Setor[] = [];
    for (const id of new Set(ids)) {
      const setor = await this.findById(id);
      if (setor) found.push(setor);
    }
    return found;
  }
  async findByIdInCompany(companyId: string, id: string) {
    const found = this.store.setores.get(id);
    return found && found.companyId === companyId ? structuredClone(found) : null;
  }
  async listByCompany(companyId: string, page: PageRequest) {
    return paginate(await this.allOfCompany(companyId), page);
  }
  async allOfCompany(companyId: string) {
    return [...this.store.setores.values()]
      .filter((s) => s.companyId === companyId)
      .sort(byCreation)
      .map((s) => structuredClone(s));
  }
}

export function inMemorySetorRepositories(store: InMemoryStore): SetorRepositories {
  return { setores: new InMemorySetorRepository(store) };
}
