import * as m0008 from './0008-crm.js';
import { postgresArea } from '../shared/postgres-area.js';
import { kyselyCrmRepositories } from './kysely-crm-repositories.js';

/** Funnel stages (seeded per company by a trigger), products, opportunities and their history. */
export const crmArea = postgresArea({
  migrations: { '0008-crm': m0008 },
  repositories: (db) => kyselyCrmRepositories(db),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { CrmTables } from './crm-tables.js';
