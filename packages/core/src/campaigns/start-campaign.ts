import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { transition } from '../shared/decider.js';
import { campaignDecider } from './campaign.js';
import { campaignStartedEvent } from './campaign-events.js';
import { CampaignQueues } from './campaign-queues.js';
import { wakeLanes } from './lane-wakeups.js';
import { linkCampaignContacts } from './link-campaign-contacts.js';
import type { CampaignRepositories } from './campaign-repositories.js';
import type { ContactRepositories } from '../contacts/index.js';

/**
 * The start job of a campaign (at creation for immediate ones, at `scheduled_for` otherwise):
 * pendente becomes processando with campaign.started, and the lanes of its pool wake up.
 * Idempotent: a second run, or a run for a campaign no longer pendente, does nothing.
 */
export class StartCampaign {
  constructor(
    private readonly uow: UnitOfWork<CampaignRepositories & ContactRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  execute(campaignId: string): Promise<'started' | 'not_due' | 'ignored'> {
    return this.uow.transaction(async (repos) => {
      const campaign = await repos.campaigns.findByIdForUpdate(campaignId);
      if (!campaign || campaign.status !== 'pendente') return 'ignored';
      const now = this.clock.now();
      if (campaign.scheduledFor && campaign.scheduledFor.getTime() > now.getTime()) {
        await repos.jobs.enqueue(CampaignQueues.start, { campaignId }, { startAfter: campaign.scheduledFor, singletonKey: campaignId });
        return 'not_due';
      }
      await linkCampaignContacts(repos, campaign.id, this.ids, now);
      const next = transition(campaignDecider, campaign, { type: 'start', at: now }).state;
      await repos.campaigns.update(next);
      await repos.events.record([campaignStartedEvent(next, this.ids, now)]);
      await wakeLanes(repos.jobs, next.setorIds);
      return 'started';
    });
  }
}
