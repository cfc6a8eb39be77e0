import { NotFoundError } from '../shared/errors.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { Campaign } from './campaign.js';
import type { CampaignRepositories } from './campaign-repositories.js';

/** The company's campaign `campaignId` with its row locked for the transaction (pause, resume, cancel, retry); 404 when the company has none by that id. */
export async function lockedCampaignOfCompany(repos: Repositories<CampaignRepositories>, companyId: string, campaignId: string): Promise<Campaign> {
  const found = await repos.campaigns.findByIdInCompany(companyId, campaignId);
  const campaign = found && (await repos.campaigns.findByIdForUpdate(found.id));
  if (!campaign) throw new NotFoundError('Campaign', { id: campaignId });
  return campaign;
}
