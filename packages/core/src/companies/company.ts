import { DEFAULT_PHONE_COUNTRY, isPhoneCountry } from '../phone/index.js';
import { ValidationError } from '../shared/errors.js';

export type Modality = 'mensal' | 'avulso' | 'inativo';
export const Modalities: readonly Modality[] = ['mensal', 'avulso', 'inativo'];

/** Hours of the day (company time zone) in which immediate campaigns may start. */
export interface SafeHours {
  start: number;
  end: number;
}

/** A customer of the service. Settings left null take the plan's default. */
export interface Company {
  id: string;
  name: string;
  planCode: string;
  modality: Modality;
  expiresAt: Date | null;
  /** Prepaid units of an `avulso` company. */
  avulsoBalance: number;
  unlimited: boolean;
  bulkMessagingEnabled: boolean;
  multiNumberEnabled: boolean;
  dailyLimit: number | null;
  concurrentCampaignsLimit: number | null;
  companyRpm: number | null;
  safeHours: SafeHours;
  /** IANA zone for safe hours and date placeholders; Brasília unless the company says otherwise. */
  timezone: string;
  /** ISO 3166-1 alpha-2 country of phone numbers written without their country code; Brazil unless set. */
  defaultCountry: string;
  /** The operator's quota overrides, quota name → limit (business.md §0); a quota not named takes the plan's. */
  quotaOverrides?: Record<string, number>;
  createdAt: Date;
  updatedAt: Date;
}

/** The limits in force for a company once plan defaults are applied. */
export interface EffectiveSettings {
  dailyLimit: number;
  concurrentCampaignsLimit: number;
  companyRpm: number;
}

export const DEFAULT_TIMEZONE = 'America/Sao_Paulo';
export const DEFAULT_RPM = 60;
export const MAX_RECIPIENTS_PER_CAMPAIGN = 10_000;
const SMALL_PLANS = new Set(['trial', 'basic']);

/** Plan defaults of the specification: trial and basic get 500 a day and 1 campaign, others 5,000 and 3. */
export function effectiveSettings(company: Company): EffectiveSettings {
  const small = SMALL_PLANS.has(company.planCode);
  return {
    dailyLimit: company.dailyLimit ?? (small ? 500 : 5_000),
    concurrentCampaignsLimit: company.concurrentCampaignsLimit ?? (small ? 1 : 3),
    companyRpm: company.companyRpm ?? DEFAULT_RPM,
  };
}

/** What `avulso_balance` reads: -1 for unlimited companies, 0 on the monthly modality. */
export function displayedBalance(company: Company): number {
  if (company.unlimited) return -1;
  if (company.modality !== 'avulso') return 0;
  return company.avulsoBalance;
}

/** Whether the company is charged per message (an `avulso`, not unlimited, company). */
export function paysPerMessage(company: Company): boolean {
  return company.modality === 'avulso' && !company.unlimited;
}

/** An `avulso` company past its `expires_at`. */
export function isExpired(company: Company, now: Date): boolean {
  return company.modality === 'avulso' && company.expiresAt !== null && company.expiresAt.getTime() <= now.getTime();
}

/** The settings an operator may set; absent fields keep their value. */
export interface CompanySettingsInput {
  name?: string;
  planCode?: string;
  modality?: Modality;
  expiresAt?: Date | null;
  avulsoBalance?: number;
  unlimited?: boolean;
  bulkMessagingEnabled?: boolean;
  multiNumberEnabled?: boolean;
  dailyLimit?: number | null;
  concurrentCampaignsLimit?: number | null;
  companyRpm?: number | null;
  safeHours?: SafeHours;
  timezone?: string;
  defaultCountry?: string;
  /** Per quota name: a limit, or null to return to the plan's; quotas not named keep theirs. */
  quotaOverrides?: Record<string, number | null>;
}

export function validateSafeHours(safeHours: SafeHours): void {
  const ok = (h: number) => Number.isInteger(h) && h >= 0 && h <= 24;
  if (!ok(safeHours.start) || !ok(safeHours.end) || safeHours.start >= safeHours.end) {
    throw new ValidationError('safe_hours needs integers 0-24 with start before end', { safe_hours: safeHours });
  }
}

/** `default_country` must be an upper-case ISO 3166-1 alpha-2 code of a country with a numbering plan. */
export function validateDefaultCountry(country: string): void {
  if (!isPhoneCountry(country)) {
    throw new ValidationError('default_country must be an ISO 3166-1 alpha-2 country code such as BR', { field: 'default_country', value: country });
  }
}

/** A new company with the specification's defaults for every setting not given. */
export function createCompany(id: string, now: Date, input: CompanySettingsInput & { name: string }): Company {
  const company: Company = {
    id,
    name: input.name,
    planCode: input.planCode ?? 'pro',
    modality: input.modality ?? 'mensal',
    expiresAt: input.expiresAt ?? null,
    avulsoBalance: input.avulsoBalance ?? 0,
    unlimited: input.unlimited ?? false,
    bulkMessagingEnabled: input.bulkMessagingEnabled ?? true,
    multiNumberEnabled: input.multiNumberEnabled ?? true,
    dailyLimit: input.dailyLimit ?? null,
    concurrentCampaignsLimit: input.concurrentCampaignsLimit ?? null,
    companyRpm: input.companyRpm ?? null,
    safeHours: input.safeHours ?? { start: 8, end: 21 },
    timezone: input.timezone ?? DEFAULT_TIMEZONE,
    defaultCountry: input.defaultCountry ?? DEFAULT_PHONE_COUNTRY,
    createdAt: now,
    updatedAt: now,
  };
  validateSafeHours(company.safeHours);
  validateDefaultCountry(company.defaultCountry);
  return company;
}

export function updateCompany(company: Company, now: Date, input: CompanySettingsInput): Company {
  const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as CompanySettingsInput;
  const { quotaOverrides: quotaChanges, ...rest } = defined;
  const next: Company = { ...company, ...rest, updatedAt: now };
  if (quotaChanges) {
    const merged: Record<string, number> = { ...(company.quotaOverrides ?? {}) };
    for (const [name, limit] of Object.entries(quotaChanges)) {
      if (limit === null) delete merged[name];
      else merged[name] = limit;
    }
    if (Object.keys(merged).length > 0) next.quotaOverrides = merged;
    else delete next.quotaOverrides;
  }
  validateSafeHours(next.safeHours);
  validateDefaultCountry(next.defaultCountry);
  return next;
}
