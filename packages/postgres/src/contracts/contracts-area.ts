import * as m0009 from './0009-contracts.js';
import * as m0035 from './0035-contracts-title-search.js';
import { postgresArea } from '../shared/postgres-area.js';
import { kyselyContractRepositories } from './kysely-contract-repositories.js';

/** Contract templates, contracts and the provider webhook log. */
export const contractsArea = postgresArea({
  migrations: { '0009-contracts': m0009, '0035-contracts-title-search': m0035 },
  repositories: (db) => kyselyContractRepositories(db),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { ContractsTables } from './contracts-tables.js';
