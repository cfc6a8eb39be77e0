import type { Principal } from '../api-keys/index.js';
import { MAX_RECIPIENTS_PER_CAMPAIGN, displayedBalance, effectiveSettings, type Company, type Modality } from '../companies/index.js';
import type { Clock } from '../shared/clock.js';
import { zonedDay } from '../shared/zoned-time.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { UsageRepositories } from '../usage/index.js';
import { quotaStatuses, type QuotaStatus, type QuotaUsageCounter } from '../quotas/index.js';
import type { QuotaName } from '../quotas/index.js';

/** The `GET /v1/limits` record. */
export interface LimitsView {
  bulk_messaging_enabled: boolean;
  modality: Modality;
  plan_code: string;
  expires_at: string | null;
  unlimited: boolean;
  avulso_balance: number;
  daily: { limit: number; sent_today: number; remaining: number };
  concurrent_campaigns: { limit: number; active: number; remaining: number };
  max_recipients_per_campaign: number;
  rate_limit: { api_key_rpm: number; company_rpm: number; effective_rpm: number };
  safe_hours: { start: number; end: number };
  timezone: string;
  /** The plan quotas (business.md §0), each with its limit, usage and reset. */
  quotas: Record<QuotaName, QuotaStatus>;
}

/** Counts the company's active campaigns (pendente plus processando, scheduled ones included). */
export type ActiveCampaignCounter = (companyId: string) => Promise<number>;

/** Today's send count of a company, in its own time zone. */
export function sentToday(repos: Repositories<UsageRepositories>, company: Company, now: Date): Promise<number> {
  return repos.usage.sentByCompany(company.id, zonedDay(now, company.timezone));
}

/** Computes the company's effective limits as the key sees them. */
export class GetLimits {
  constructor(
    private readonly repos: Repositories<UsageRepositories>,
    private readonly clock: Clock,
    private readonly activeCampaigns: ActiveCampaignCounter,
    private readonly quotaCounters: readonly QuotaUsageCounter[] = [],
  ) {}

  async execute({ company, apiKey }: Principal): Promise<LimitsView> {
    const settings = effectiveSettings(company);
    const now = this.clock.now();
    const [sent, active, quotas] = await Promise.all([sentToday(this.repos, company, now), this.activeCampaigns(company.id), quotaStatuses(company, this.quotaCounters, now)]);
    return {
      bulk_messaging_enabled: company.bulkMessagingEnabled,
      modality: company.modality,
      plan_code: company.planCode,
      expires_at: company.expiresAt ? company.expiresAt.toISOString() : null,
      unlimited: company.unlimited,
      avulso_balance: displayedBalance(company),
      daily: { limit: settings.dailyLimit, sent_today: sent, remaining: Math.max(0, settings.dailyLimit - sent) },
      concurrent_campaigns: {
        limit: settings.concurrentCampaignsLimit,
        active,
        remaining: Math.max(0, settings.concurrentCampaignsLimit - active),
      },
      max_recipients_per_campaign: MAX_RECIPIENTS_PER_CAMPAIGN,
      rate_limit: {
        api_key_rpm: apiKey.rpm,
        company_rpm: settings.companyRpm,
        effective_rpm: Math.min(apiKey.rpm, settings.companyRpm),
      },
      safe_hours: { ...company.safeHours },
      timezone: company.timezone,
      quotas,
    };
  }
}
