import type { KeyMode } from '../api-keys/index.js';
import { noteBalanceDebit, type BillingRepositories } from '../billing/index.js';
import type { EventOutbox } from '../shared/domain-event.js';
import { effectiveSettings, isExpired, paysPerMessage, type Company } from '../companies/index.js';
import { DomainError } from '../shared/errors.js';
import { zonedDay } from '../shared/zoned-time.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { UsageRepositories } from '../usage/index.js';

/** The calendar day (company time zone) whose counter a send at `now` counts in. */
export function sendDay(company: Company, now: Date): string {
  return zonedDay(now, company.timezone);
}

/**
 * Why a live send of this company is refused before anything is charged, or null:
 * 402 PLAN_EXPIRED for an inactive (read-only) company or an expired `avulso` plan,
 * 402 BULK_DISABLED for an `avulso` company whose balance is exhausted.
 */
export function sendBlocker(company: Company, now: Date): DomainError | null {
  if (company.modality === 'inativo') {
    return new DomainError('PLAN_EXPIRED', 'The account is inactive (read-only): sending is disabled', { modality: company.modality });
  }
  if (isExpired(company, now)) {
    return new DomainError('PLAN_EXPIRED', 'Plano avulso expirado', { expires_at: company.expiresAt?.toISOString() ?? null });
  }
  if (paysPerMessage(company) && company.avulsoBalance <= 0) return balanceExhausted(company.avulsoBalance);
  return null;
}

function balanceExhausted(balance: number, needed = 1): DomainError {
  return new DomainError('BULK_DISABLED', 'Send balance exhausted: recharge to keep sending', { avulso_balance: balance, required: needed });
}

/** The result of {@link chargeSend}: what to give back if the send does not happen. */
export interface SendCharge {
  /** Units taken from the balance (0 for monthly, unlimited companies and test keys). */
  debited: number;
  /** Sends added to the daily counters (0 for test keys). */
  counted: number;
  /** The day of the counters that were increased. */
  day: string;
  setorId: string | null;
}

/**
 * Inside a transaction: refuses (402/403) or charges `units` sends of a live key: debits an
 * `avulso` balance atomically (never below zero, even under concurrent sends) and adds them
 * to the company's and setor's daily counters, checking the daily limit (403 FORBIDDEN
 * 'Daily messages limit exceeded'). Test keys are never charged or counted.
 * Lock order: the company row first (serialises the daily-limit check of concurrent sends).
 */
export async function chargeSend(
  repos: CompanyRepositories & UsageRepositories & Partial<BillingRepositories> & { events?: EventOutbox },
  companyId: string,
  mode: KeyMode,
  setorId: string | null,
  now: Date,
  units = 1,
): Promise<SendCharge> {
  const company = await repos.companies.findByIdForUpdate(companyId);
  if (!company) throw new DomainError('NOT_FOUND', 'Company not found');
  const day = sendDay(company, now);
  if (mode === 'test') return { debited: 0, counted: 0, day, setorId };
  const blocker = sendBlocker(company, now);
  if (blocker) throw blocker;
  await assertDailyCapacity(repos, company, now, units);
  let charged = 0;
  if (paysPerMessage(company)) {
    const balance = await repos.companies.adjustBalance(company.id, -units);
    if (balance === null) throw balanceExhausted(company.avulsoBalance, units);
    charged = units;
    await noteBalanceDebit(repos, company, 'messages', balance + units, balance, now, mode);
  }
  await repos.usage.addSent(company.id, setorId, day, units);
  return { debited: charged, counted: units, day, setorId };
}

/** 403 FORBIDDEN when `units` more sends today would pass the company's daily limit. */
export async function assertDailyCapacity(repos: UsageRepositories, company: Company, now: Date, units: number): Promise<void> {
  const day = sendDay(company, now);
  const limit = effectiveSettings(company).dailyLimit;
  const sent = await repos.usage.sentByCompany(company.id, day);
  if (sent + units > limit) {
    throw new DomainError('FORBIDDEN', 'Daily messages limit exceeded', { limit, sent_today: sent, requested: units, remaining: Math.max(0, limit - sent) });
  }
}

/** Gives back what {@link chargeSend} took: the balance units and the daily counts. */
export async function refundSend(repos: CompanyRepositories & UsageRepositories, companyId: string, charge: SendCharge): Promise<void> {
  if (charge.debited > 0) await repos.companies.adjustBalance(companyId, charge.debited);
  if (charge.counted > 0) await repos.usage.addSent(companyId, charge.setorId, charge.day, -charge.counted);
}

/** Debits `units` from an `avulso` balance (campaign reservations); 402 BULK_DISABLED when short. Returns the units debited (0 when the company does not pay per message). */
export async function debitUnits(repos: CompanyRepositories, company: Company, units: number): Promise<number> {
  if (!paysPerMessage(company) || units <= 0) return 0;
  const balance = await repos.companies.adjustBalance(company.id, -units);
  if (balance === null) throw balanceExhausted(company.avulsoBalance, units);
  return units;
}

/** Returns `units` to an `avulso` balance (a failed, skipped or cancelled campaign message). */
export async function refundUnits(repos: CompanyRepositories, companyId: string, units: number): Promise<void> {
  if (units > 0) await repos.companies.adjustBalance(companyId, units);
}
