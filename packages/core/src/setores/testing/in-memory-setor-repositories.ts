import type { Setor, SetorRepositories, SetorRepository } from '../index.js';
import type { PageRequest } from '../../shared/pagination.js';
import { byCreation, paginate, storeTable, type InMemoryStore } from '../../shared/testing/index.js';
import { InMemoryRecords } from '../../shared/testing/in-memory-records.js';

declare module '../../shared/testing/in-memory-store.js' {
  interface InMemoryStore {
    setores: Map<string, Setor>;
  }
}
storeTable('setores', () => new Map<string, Setor>());

export class InMemorySetorRepository extends InMemoryRecords<Setor> implements SetorRepository {
  constructor(store: InMemoryStore) {
    super(store, (s) => s.setores);
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
    return this.copyOf(id, (s) => s.companyId === companyId);
  }
  async listByCompany(companyId: string, page: PageRequest) {
    return paginate(await this.allOfCompany(companyId), page);
  }
  async allOfCompany(companyId: string) {
    return this.copiesWhere((s) => s.companyId === companyId).sort(byCreation);
  }
}

export function inMemorySetorRepositories(store: InMemoryStore): SetorRepositories {
  return { setores: new InMemorySetorRepository(store) };
}
