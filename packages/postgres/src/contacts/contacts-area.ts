import * as m0007 from './0007-contacts.js';
import * as m0029 from './0029-contact-merge-references.js';
import { postgresArea } from '../shared/postgres-area.js';
import { KyselyContactAffinityRepository, KyselyContactRepository } from './kysely-contact-repositories.js';
import { KyselyContactFieldRepository } from './kysely-contact-field-repository.js';
import { KyselyContactImportRepository } from './kysely-contact-import-repository.js';
import { KyselyTagRepository, KyselyTagRuleRepository } from './kysely-tag-repositories.js';

/**
 * Contacts (with custom fields and the assistant switch), affinities, custom-field definitions,
 * import jobs, tags and tag rules. The contact, affinity and tag tables were created by
 * 0003-messages (migration names never change); this area owns them and their repositories.
 */
export const contactsArea = postgresArea({
  migrations: { '0007-contacts': m0007, '0029-contact-merge-references': m0029 },
  repositories: (db) => ({
    contacts: new KyselyContactRepository(db),
    contactAffinities: new KyselyContactAffinityRepository(db),
    contactFields: new KyselyContactFieldRepository(db),
    contactImports: new KyselyContactImportRepository(db),
    tags: new KyselyTagRepository(db),
    tagRules: new KyselyTagRuleRepository(db),
  }),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { ContactsTables } from './contacts-tables.js';
