import { setorInboxView } from '../agents/agent-views.js';
import { displayedBalance, effectiveSettings, type ApiKey, type Company, type Setor, type Team } from '@carteiro/core';

/** The company as the operator sees it: every setting with plan defaults applied. */
export function companyView(company: Company) {
  const settings = effectiveSettings(company);
  return {
    id: company.id,
    name: company.name,
    plan_code: company.planCode,
    modality: company.modality,
    expires_at: company.expiresAt?.toISOString() ?? null,
    avulso_balance: displayedBalance(company),
    unlimited: company.unlimited,
    bulk_messaging_enabled: company.bulkMessagingEnabled,
    multi_number_enabled: company.multiNumberEnabled,
    daily_limit: settings.dailyLimit,
    concurrent_campaigns_limit: settings.concurrentCampaignsLimit,
    company_rpm: settings.companyRpm,
    safe_hours: { ...company.safeHours },
    timezone: company.timezone,
    default_country: company.defaultCountry,
    quotas: { ...(company.quotaOverrides ?? {}) },
    created_at: company.createdAt.toISOString(),
    updated_at: company.updatedAt.toISOString(),
  };
}

/** A key without its secret. */
export function apiKeyView(key: ApiKey) {
  return {
    id: key.id,
    company_id: key.companyId,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    mode: key.mode,
    rpm: key.rpm,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
    expires_at: key.expiresAt?.toISOString() ?? null,
  };
}

/** A setor; the official access token is never echoed back. */
export function setorView(setor: Setor) {
  return {
    id: setor.id,
    company_id: setor.companyId,
    nome: setor.nome,
    channel_type: setor.channelType,
    official: setor.official ? { phone_number_id: setor.official.phoneNumberId, waba_id: setor.official.wabaId } : null,
    warming_daily_limit_override: setor.warmingDailyLimitOverride,
    ...setorInboxView(setor),
    created_at: setor.createdAt.toISOString(),
    updated_at: setor.updatedAt.toISOString(),
  };
}

export function teamView(team: Team) {
  return {
    id: team.id,
    company_id: team.companyId,
    nome: team.nome,
    setor_ids: team.setorIds,
    auto_assign: team.autoAssign,
    max_open_per_agent: team.maxOpenPerAgent,
    created_at: team.createdAt.toISOString(),
  };
}
