import type { ApiKey, ApiKeyRepositories, ApiKeyRepository } from '../index.js';
import type { PageRequest } from '../../shared/pagination.js';
import { byCreation, paginate, storeTable, type InMemoryStore } from '../../shared/testing/index.js';

declare module '../../shared/testing/in-memory-store.js' {
  interface InMemoryStore {
    apiKeys: Map<string, ApiKey>;
    /** The request gate's fixed-window counters, `<bucket>@<window start ms>`. */
    rateLimits: Map<string, number>;
  }
}
storeTable('apiKeys', () => new Map<string, ApiKey>());
storeTable('rateLimits', () => new Map<string, number>());

export class InMemoryApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly store: InMemoryStore) {}
  async insert(key: ApiKey) {
    this.store.apiKeys.set(key.id, structuredClone(key));
  }
  async update(key: ApiKey) {
    this.store.apiKeys.set(key.id, structuredClone(key));
  }
  async findById(id: string) {
    const found = this.store.apiKeys.get(id);
    return found ? structuredClone(found) : null;
  }
  async findByHash(keyHash: string) {
    const found = [...this.store.apiKeys.values()].find((k) => k.keyHash === keyHash);
    return found ? structuredClone(found) : null;
  }
  async listByCompany(companyId: string, page: PageRequest) {
    const all = [...this.store.apiKeys.values()].filter((k) => k.companyId === companyId).sort(byCreation);
    return paginate(all.map((k) => structuredClone(k)), page);
  }
}

export function inMemoryApiKeyRepositories(store: InMemoryStore): ApiKeyRepositories {
  return { apiKeys: new InMemoryApiKeyRepository(store) };
}
