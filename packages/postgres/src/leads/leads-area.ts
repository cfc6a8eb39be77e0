import * as m0011 from './0011-leads.js';
import { postgresArea } from '../shared/postgres-area.js';
import { kyselyLeadRepositories } from './kysely-lead-repositories.js';

/** Lead searches with their leads, and the channel-check cache. */
export const leadsArea = postgresArea({
  migrations: { '0011-leads': m0011 },
  repositories: (db) => kyselyLeadRepositories(db),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { LeadsTables } from './leads-tables.js';
