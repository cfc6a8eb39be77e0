import { apiActor } from '../shared/domain-event.js';
import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { transition } from '../shared/decider.js';
import { campaignDecider } from './campaign.js';
import { campaignPausedEvent } from './campaign-events.js';
import type { CampaignRepositories } from './campaign-repositories.js';
import { lockedCampaignOfCompany } from './locked-campaign.js';

/** POST /v1/campaigns/:id/pause: lanes stop claiming its messages; sent ones stay; pending ones wait. */
export class PauseCampaign {
  constructor(
    private readonly uow: UnitOfWork<CampaignRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  execute(companyId: string, campaignId: string): Promise<{ status: 'paused' }> {
    return this.uow.transaction(async (repos) => {
      const campaign = await lockedCampaignOfCompany(repos, companyId, campaignId);
      const now = this.clock.now();
      const next = transition(campaignDecider, campaign, { type: 'pause', at: now }).state;
      await repos.campaigns.update(next);
      await repos.events.record([campaignPausedEvent(next, this.ids, now, apiActor)]);
      return { status: 'paused' as const };
    });
  }
}
