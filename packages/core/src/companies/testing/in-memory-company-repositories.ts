import type { Company, CompanyRepositories, CompanyRepository } from '../index.js';
import { InMemoryStore, storeTable } from '../../shared/testing/index.js';

declare module '../../shared/testing/in-memory-store.js' {
  interface InMemoryStore {
    companies: Map<string, Company>;
  }
}
storeTable('companies', () => new Map<string, Company>());

export class InMemoryCompanyRepository implements CompanyRepository {
  constructor(private readonly store: InMemoryStore) {}
  async insert(company: Company) {
    this.store.companies.set(company.id, structuredClone(company));
  }
  async update(company: Company) {
    this.store.companies.set(company.id, structuredClone(company));
  }
  async findById(id: string) {
    const found = this.store.companies.get(id);
    return found ? structuredClone(found) : null;
  }
  async findByIdForUpdate(id: string) {
    return this.findById(id);
  }
  async adjustBalance(id: string, delta: number) {
    const company = this.store.companies.get(id);
    if (!company || company.avulsoBalance + delta < 0) return null;
    company.avulsoBalance += delta;
    return company.avulsoBalance;
  }
}

export function inMemoryCompanyRepositories(store: InMemoryStore): CompanyRepositories {
  return { companies: new InMemoryCompanyRepository(store) };
}
