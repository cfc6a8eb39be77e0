import type { UsageRepository } from './usage-repository.js';

/** The usage area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface UsageRepositories {
  usage: UsageRepository;
}
