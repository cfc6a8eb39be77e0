import type { Company, CompanyRepositories, CompanyRepository } from '../index.js';
import { InMemoryStore, storeTable } from '../../shared/testing/index.js';
import { InMemoryRecords } from '../../shared/testing/in-memory-records.js';

declare module '../../shared/testing/in-memory-store.js' {
  interface InMemoryStore {
    companies: Map<string, Company>;
  }
}
storeTable('companies', () => new Map<string, Company>());

export class InMemoryCompanyRepository extends InMemoryRecords<Company> implements CompanyRepository {
  constructor(store: InMemoryStore) {
    super(store, (s) => s.companies);
  }
  async findByIdForUpdate(id: string) {
    return this.findById(id);
  }
  async adjustBalance(id: string, delta: number) {
    const company = this.records.get(id);
    if (!company || company.avulsoBalance + delta < 0) return null;
    company.avulsoBalance += delta;
    return company.avulsoBalance;
  }
}

export function inMemoryCompanyRepositories(store: InMemoryStore): CompanyRepositories {
  return { companies: new InMemoryCompanyRepository(store) };
}
