import type { Page, PageRequest } from '../../shared/pagination.js';
import { InMemoryCompanyRecords } from '../../shared/testing/in-memory-company-records.js';
import { paginate, type InMemoryStore } from '../../shared/testing/in-memory-store.js';
import type { Contract } from '../contract.js';
import type { ContractFilter, ContractRepositories, ContractRepository, ContractTemplateRepository, SigningEventLog } from '../contract-repositories.js';
import type { ContractTemplate } from '../contract-template.js';

// Tables are looked up on every call: a rolled-back transaction replaces the store's maps.
const contracts = (store: InMemoryStore) => store.table('contracts', () => new Map<string, Contract>());
const templates = (store: InMemoryStore) => store.table('contractTemplates', () => new Map<string, ContractTemplate>());
const signingEvents = (store: InMemoryStore) => store.table('signingEvents', () => new Set<string>());

const copy = (c: Contract | undefined | null) => (c ? structuredClone(c) : null);

export class InMemoryContractRepository extends InMemoryCompanyRecords<Contract> implements ContractRepository {
  constructor(store: InMemoryStore) {
    super(store, contracts);
  }
  async findAnyById(id: string) {
    return copy(contracts(this.store).get(id));
  }
  async findByProviderRefForUpdate(provider: string, providerRef: string) {
    return copy([...contracts(this.store).values()].find((c) => c.provider === provider && c.providerRef === providerRef));
  }
  async list(companyId: string, filter: ContractFilter, page: PageRequest): Promise<Page<Contract>> {
    const search = filter.search?.toLowerCase();
    const all = [...contracts(this.store).values()]
      .filter((c) => c.companyId === companyId)
      .filter((c) => (!filter.status || c.status === filter.status) && (!filter.clientId || c.clientId === filter.clientId))
      .filter((c) => (!filter.opportunityId || c.opportunityId === filter.opportunityId) && (!search || c.title.toLowerCase().includes(search)))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
    return paginate(all.map((c) => structuredClone(c)), page);
  }
  async countSentSince(companyId: string, since: Date) {
    return [...contracts(this.store).values()].filter((c) => c.companyId === companyId && c.sentAt !== null && c.sentAt >= since && c.delivery?.mode !== 'test').length;
  }
  async stuckSending(before: Date, limit: number) {
    return [...contracts(this.store).values()]
      .filter((c) => c.status === 'sending' && c.sendingSince !== null && c.sendingSince < before)
      .sort((a, b) => a.sendingSince!.getTime() - b.sendingSince!.getTime())
      .slice(0, limit)
      .map((c) => structuredClone(c));
  }
  async awaitingSignature(limit: number) {
    return [...contracts(this.store).values()]
      .filter((c) => c.status === 'sent')
      .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime() || a.id.localeCompare(b.id))
      .slice(0, limit)
      .map((c) => structuredClone(c));
  }
}

export class InMemoryContractTemplateRepository extends InMemoryCompanyRecords<ContractTemplate> implements ContractTemplateRepository {
  constructor(store: InMemoryStore) {
    super(store, templates);
  }
  async findAnyById(id: string) {
    const found = templates(this.store).get(id);
    return found ? structuredClone(found) : null;
  }
  async findAnyByIdForUpdate(id: string) {
    return this.findAnyById(id);
  }
  async listByCompany(companyId: string, includeInactive: boolean) {
    return [...templates(this.store).values()]
      .filter((t) => t.companyId === companyId && (includeInactive || t.active))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
      .map((t) => structuredClone(t));
  }
}

export class InMemorySigningEventLog implements SigningEventLog {
  constructor(private readonly store: InMemoryStore) {}
  async recordOnce(provider: string, eventId: string) {
    const key = `${provider}:${eventId}`;
    if (signingEvents(this.store).has(key)) return false;
    signingEvents(this.store).add(key);
    return true;
  }
}

/** The contracts area's fakes over one store. */
export function inMemoryContractRepositories(store: InMemoryStore): ContractRepositories {
  return {
    contracts: new InMemoryContractRepository(store),
    contractTemplates: new InMemoryContractTemplateRepository(store),
    signingEvents: new InMemorySigningEventLog(store),
  };
}
