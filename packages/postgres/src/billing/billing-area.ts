import * as m0012 from './0012-billing.js';
import * as m0027 from './0027-messages-report-supersedes-company-index.js';
import { postgresArea } from '../shared/postgres-area.js';
import { kyselyBillingRepositories } from './kysely-billing-repository.js';

/** Lead and assistant credit balances, payments, low-balance thresholds and alerts (and the report indexes). */
export const billingArea = postgresArea({
  migrations: { '0012-billing': m0012, '0027-messages-report-supersedes-company-index': m0027 },
  repositories: (db) => kyselyBillingRepositories(db),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { BillingTables } from './billing-tables.js';
