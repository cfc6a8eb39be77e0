import * as m0004 from './0004-campaigns.js';
import * as m0016 from './0016-campaign-message-retention.js';
import * as m0021 from './0021-campaign-claims.js';
import * as m0025 from './0025-campaign-claims-grouped.js';
import { postgresArea } from '../shared/postgres-area.js';
import { KyselyCampaignRepository, KyselyDispatchLaneRepository, KyselyIdempotencyRepository } from './kysely-campaign-repositories.js';

/** Campaigns, their messages, the per-number dispatch lanes and the Idempotency-Key records. */
export const campaignsArea = postgresArea({
  migrations: { '0004-campaigns': m0004, '0016-campaign-message-retention': m0016, '0021-campaign-claims': m0021, '0025-campaign-claims-grouped': m0025 },
  repositories: (db) => ({
    campaigns: new KyselyCampaignRepository(db),
    dispatchLanes: new KyselyDispatchLaneRepository(db),
    idempotency: new KyselyIdempotencyRepository(db),
  }),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { CampaignsTables } from './campaigns-tables.js';
