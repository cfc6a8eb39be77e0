import { noteBalanceDebit } from '../billing/index.js';
import type { Clock } from '../shared/clock.js';
import { DomainError, ValidationError } from '../shared/errors.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { transition } from '../shared/decider.js';
import { campaignDecider, chargesCredits } from './campaign.js';
import { campaignMessageDecider, MAX_MANUAL_RETRIES, type CampaignMessage } from './campaign-message.js';
import type { MessageChange } from './campaign-repository.js';
import { redistribute } from './distribution.js';
import { wakeLanes } from './lane-wakeups.js';
import type { CampaignRepositories } from './campaign-repositories.js';
import { lockedCampaignOfCompany } from './locked-campaign.js';
import type { ChannelRepositories } from '../channel/index.js';
import { paysPerMessage, type CompanyRepositories } from '../companies/index.js';

/** Which failed messages to retry: these ids (the API's `detailIds`), or every failure (`all_failures`). */
export interface RetryCampaignCommand {
  messageIds?: string[] | null;
  allFailures?: boolean | null;
}

/** What went back to pending, and why the others did not. */
export interface RetryCampaignResult {
  status: string;
  retried: number;
  notRetried: { id: string; reason: 'not_failed' | 'retry_limit_reached' | 'not_found' }[];
}

/**
 * POST /v1/campaigns/:id/retry: failed messages (by `detailIds[]` or `all_failures`) go back
 * to pending, at most {@link MAX_MANUAL_RETRIES} times each; a finished campaign reopens.
 * Messages whose number can no longer send move to a connected number of the pool.
 */
export class RetryCampaignMessages {
  constructor(
    private readonly uow: UnitOfWork<CampaignRepositories & ChannelRepositories & CompanyRepositories>,
    private readonly clock: Clock,
  ) {}

  async execute(companyId: string, campaignId: string, input: RetryCampaignCommand): Promise<RetryCampaignResult> {
    const byIds = Array.isArray(input.messageIds) && input.messageIds.length > 0;
    if (byIds === (input.allFailures === true)) {
      throw new ValidationError('Send either detailIds[] or all_failures: true', { fields: ['detailIds', 'all_failures'] });
    }
    return this.uow.transaction(async (repos) => {
      let campaign = await lockedCampaignOfCompany(repos, companyId, campaignId);
      if (campaign.status === 'pendente' || campaign.cancelledByUser) {
        throw new DomainError('INVALID_TRANSITION', `Cannot retry messages of a campaign in status ${campaign.status}${campaign.cancelledByUser ? ' (cancelled)' : ''}`, {
          status: campaign.status,
          allowed: ['processando', 'pausado', 'concluido', 'falha'],
        });
      }
      const now = this.clock.now();
      const notRetried: RetryCampaignResult['notRetried'] = [];
      let candidates: CampaignMessage[];
      if (byIds) {
        const ids = [...new Set(input.messageIds!)];
        candidates = await repos.campaigns.findMessagesByIds(campaign.id, ids);
        const known = new Set(candidates.map((m) => m.id));
        for (const id of ids) if (!known.has(id)) notRetried.push({ id, reason: 'not_found' });
      } else {
        candidates = await repos.campaigns.messagesInStatus(campaign.id, ['falha']);
      }
      const retried: CampaignMessage[] = [];
      for (const m of candidates) {
        if (m.status !== 'falha') notRetried.push({ id: m.id, reason: 'not_failed' });
        else if (m.manualRetries >= MAX_MANUAL_RETRIES) notRetried.push({ id: m.id, reason: 'retry_limit_reached' });
        else retried.push(transition(campaignMessageDecider, m, { type: 'retry', at: now }).state);
      }
      if (retried.length === 0) return { status: campaign.status, retried: 0, notRetried };

      const connected: string[] = [];
      for (const setorId of campaign.setorIds) {
        const instance = await repos.channelInstances.findBySetor(setorId);
        if (instance?.status === 'connected') connected.push(setorId);
      }
      if (connected.length === 0) throw new DomainError('NOT_FOUND', 'No connected channel instance in the campaign pool', { setor_ids: campaign.setorIds });
      const stranded = retried.filter((m) => !connected.includes(m.setorId));
      const plan = redistribute(stranded.map((m) => m.id), connected);
      const target = new Map<string, string>();
      for (const [setorId, ids] of plan ?? []) for (const id of ids) target.set(id, setorId);
      const changes: MessageChange[] = retried.map((m) => {
        const to = target.get(m.id);
        return { message: to ? transition(campaignMessageDecider, m, { type: 'reassign', at: now, setorId: to }).state : m, expectedStatus: 'falha' };
      });

      // Charged as the company pays now: one that has left `avulso` (or became unlimited) since the campaign's
      // reservation has no balance to be refused on (operations.md §4).
      const company = chargesCredits(campaign) ? await repos.companies.findById(campaign.companyId) : null;
      if (company && paysPerMessage(company)) {
        const balance = await repos.companies.adjustBalance(campaign.companyId, -retried.length);
        if (balance === null) throw new DomainError('BULK_DISABLED', 'Insufficient balance to retry these messages', { required: retried.length });
        await noteBalanceDebit(repos, company, 'messages', balance + retried.length, balance, now, campaign.mode);
      }
      const written = await repos.campaigns.updateMessages(changes);
      await repos.campaigns.addTotals(campaign.id, { enviados: 0, falhas: -written.length, pulados: 0 });
      if (campaign.status === 'concluido' || campaign.status === 'falha') {
        campaign = transition(campaignDecider, campaign, { type: 'reopen', at: now }).state;
        await repos.campaigns.update(campaign);
      }
      await wakeLanes(repos.jobs, changes.map((c) => c.message.setorId));
      return { status: campaign.status, retried: written.length, notRetried };
    });
  }
}
