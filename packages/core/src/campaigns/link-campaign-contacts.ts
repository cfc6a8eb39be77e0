import type { Clock } from '../shared/clock.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { CampaignRepositories } from './campaign-repositories.js';
import type { ContactRepositories } from '../contacts/index.js';

/**
 * Finds or creates the contacts of a campaign's phone recipients and links them to their
 * messages (a message without a name takes the contact's). Kept out of the creation request,
 * where it cost as much as storing the messages themselves: it runs in the prepare job queued
 * with the campaign, and again (a no-op by then) in the start transaction, so every message of a
 * running campaign has its contact. Idempotent.
 */
export async function linkCampaignContacts(repos: Repositories<CampaignRepositories & ContactRepositories>, campaignId: string, ids: IdGenerator, now: Date): Promise<number> {
  const campaign = await repos.campaigns.findById(campaignId);
  if (!campaign) return 0;
  const unlinked = await repos.campaigns.messagesWithoutContact(campaignId);
  if (unlinked.length === 0) return 0;
  const contacts = await repos.contacts.ensureMany(
    campaign.companyId,
    unlinked.map((m) => ({ phone: m.phone, name: m.name })),
    ids,
    now,
  );
  await repos.campaigns.attachContacts(
    campaignId,
    unlinked.map((m, i) => ({ id: m.id, contactId: contacts[i]!.id, name: contacts[i]!.name })),
  );
  return unlinked.length;
}

/** The `campaign-prepare` job: links the contacts of a new campaign soon after its creation. */
export class PrepareCampaign {
  constructor(
    private readonly uow: UnitOfWork<CampaignRepositories & ContactRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  execute(campaignId: string): Promise<number> {
    return this.uow.transaction(async (repos) => {
      // The campaign row lock orders this with the start transaction, which links too.
      if (!(await repos.campaigns.findByIdForUpdate(campaignId))) return 0;
      return linkCampaignContacts(repos, campaignId, this.ids, this.clock.now());
    });
  }
}
