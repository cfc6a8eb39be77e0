import type { ApiKeyRepository } from './api-key-repository.js';

/** The api-keys area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface ApiKeyRepositories {
  apiKeys: ApiKeyRepository;
}
