import type { CampaignRepository } from './campaign-repository.js';
import type { DispatchLaneRepository } from './dispatch-lane-repository.js';
import type { IdempotencyRepository } from './idempotency-repository.js';

/** The campaigns area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface CampaignRepositories {
  campaigns: CampaignRepository;
  dispatchLanes: DispatchLaneRepository;
  idempotency: IdempotencyRepository;
}
