import type { ApiKey, ApiKeyRepositories, ApiKeyRepository } from '../index.js';
import type { PageRequest } from '../../shared/pagination.js';
import { byCreation, paginate, storeTable, type InMemoryStore } from '../../shared/testing/index.js';
import { InMemoryRecords } from '../../shared/testing/in-memory-records.js';

declare module '../../shared/testing/in-memory-store.js' {
  interface InMemoryStore {
    apiKeys: Map<string, ApiKey>;
    /** The request gate's fixed-window counters, `<bucket>@<window start ms>`. */
    rateLimits: Map<string, number>;
  }
}
storeTable('apiKeys', () => new Map<string, ApiKey>());
storeTable('rateLimits', () => new Map<string, number>());

export class InMemoryApiKeyRepository extends InMemoryRecords<ApiKey> implements ApiKeyRepository {
  constructor(store: InMemoryStore) {
    super(store, (s) => s.apiKeys);
  }
  async findByIdForUpdate(id: string) {
    return this.findById(id);
  }
  async findByHash(keyHash: string) {
    return this.copiesWhere((k) => k.keyHash === keyHash)[0] ?? null;
  }
  async listByCompany(companyId: string, page: PageRequest) {
    return paginate(this.copiesWhere((k) => k.companyId === companyId).sort(byCreation), page);
  }
}

export function inMemoryApiKeyRepositories(store: InMemoryStore): ApiKeyRepositories {
  return { apiKeys: new InMemoryApiKeyRepository(store) };
}
