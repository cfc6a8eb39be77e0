import type { Page, PageRequest } from '../shared/pagination.js';
import type { ApiKey } from './api-key.js';

/** Stores API keys by the hash of the key. */
export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  update(key: ApiKey): Promise<void>;
  findById(id: string): Promise<ApiKey | null>;
  /** As findById, the row locked until the transaction ends (rotations and revocations of one key wait for each other). */
  findByIdForUpdate(id: string): Promise<ApiKey | null>;
  findByHash(keyHash: string): Promise<ApiKey | null>;
  listByCompany(companyId: string, page: PageRequest): Promise<Page<ApiKey>>;
}
