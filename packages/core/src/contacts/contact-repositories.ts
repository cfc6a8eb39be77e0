import type { ContactAffinityRepository } from './contact-affinity-repository.js';
import type { ContactFieldRepository } from './contact-field-repository.js';
import type { ContactImportRepository } from './contact-import-repository.js';
import type { ContactRepository } from './contact-repository.js';

/** The contacts area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface ContactRepositories {
  contacts: ContactRepository;
  contactAffinities: ContactAffinityRepository;
  contactFields: ContactFieldRepository;
  contactImports: ContactImportRepository;
}
