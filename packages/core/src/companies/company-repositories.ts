import type { CompanyRepository } from './company-repository.js';

/** The companies area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface CompanyRepositories {
  companies: CompanyRepository;
}
