import * as m0017 from './0017-receipts.js';
import { postgresArea } from '../shared/postgres-area.js';
import { kyselyReceiptRepositories } from './kysely-receipt-repositories.js';

/** Delivery and read receipts of single sends and campaign messages, and the simulator's owed receipts. */
export const receiptsArea = postgresArea({
  migrations: { '0017-receipts': m0017 },
  repositories: (db) => kyselyReceiptRepositories(db),
});
