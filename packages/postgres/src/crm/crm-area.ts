import * as m0008 from './0008-crm.js';
import * as m0034 from './0034-crm-opportunities-closed.js';
import { postgresArea } from '../shared/postgres-area.js';
import { kyselyCrmRepositories } from './kysely-crm-repositories.js';

/** Funnel stages (seeded per company by a trigger), products, opportunities and their history. */
export const crmArea = postgresArea({
  migrations: { '0008-crm': m0008, '0034-crm-opportunities-closed': m0034 },
  repositories: (db) => kyselyCrmRepositories(db),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { CrmTables } from './crm-tables.js';
