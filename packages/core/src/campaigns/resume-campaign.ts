import type { Clock } from '../shared/clock.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { transition } from '../shared/decider.js';
import { campaignDecider } from './campaign.js';
import { wakeLanes } from './lane-wakeups.js';
import type { CampaignRepositories } from './campaign-repositories.js';
import { lockedCampaignOfCompany } from './locked-campaign.js';

/** POST /v1/campaigns/:id/resume: only still-pending messages go back to their lanes. */
export class ResumeCampaign {
  constructor(
    private readonly uow: UnitOfWork<CampaignRepositories>,
    private readonly clock: Clock,
  ) {}

  execute(companyId: string, campaignId: string): Promise<{ status: 'processing'; pendingRequeued: number }> {
    return this.uow.transaction(async (repos) => {
      const campaign = await lockedCampaignOfCompany(repos, companyId, campaignId);
      const next = transition(campaignDecider, campaign, { type: 'resume', at: this.clock.now() }).state;
      await repos.campaigns.update(next);
      const pending = await repos.campaigns.messagesInStatus(campaign.id, ['pendente']);
      await wakeLanes(repos.jobs, pending.map((m) => m.setorId));
      return { status: 'processing' as const, pendingRequeued: pending.length };
    });
  }
}
