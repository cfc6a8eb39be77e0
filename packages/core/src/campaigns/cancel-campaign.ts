import { apiActor } from '../shared/domain-event.js';
import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { transition } from '../shared/decider.js';
import { campaignDecider, chargesCredits, unsettledCount } from './campaign.js';
import { campaignCompletedEvent } from './campaign-events.js';
import type { CampaignRepositories } from './campaign-repositories.js';
import { lockedCampaignOfCompany } from './locked-campaign.js';
import type { CompanyRepositories } from '../companies/index.js';

/**
 * POST /v1/campaigns/:id/cancel: every pending message becomes pulado (cancelled_by_user) and
 * gives its unit back; sent ones stay; campaign.completed with cancelledByUser true. Messages
 * already handed to the channel when the cancel lands are recorded as they end (one that would be
 * retried is skipped instead), and campaign.completed is emitted when the last of them is.
 */
export class CancelCampaign {
  constructor(
    private readonly uow: UnitOfWork<CampaignRepositories & CompanyRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  execute(companyId: string, campaignId: string): Promise<{ cancelled: number }> {
    return this.uow.transaction(async (repos) => {
      const campaign = await lockedCampaignOfCompany(repos, companyId, campaignId);
      const now = this.clock.now();
      const next = transition(campaignDecider, campaign, { type: 'cancel', at: now }).state;
      const cancelled = await repos.campaigns.skipPending(campaign.id, { reason: 'cancelled_by_user', code: null, error: 'cancelled_by_user' }, now);
      await repos.campaigns.update(next);
      if (cancelled > 0) {
        await repos.campaigns.addTotals(campaign.id, { enviados: 0, falhas: 0, pulados: cancelled });
        if (chargesCredits(campaign)) await repos.companies.adjustBalance(campaign.companyId, cancelled);
      }
      const totals = { ...next.totals, pulados: next.totals.pulados + cancelled };
      // Messages already handed to the channel are recorded as they end: campaign.completed waits for the last of them
      // (recordChanges), so that its totals add up to the recipients and no message event follows it.
      if (unsettledCount(totals) === 0) await repos.events.record([campaignCompletedEvent({ ...next, totals }, this.ids, now, apiActor)]);
      return { cancelled };
    });
  }
}
