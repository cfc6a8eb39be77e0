import type { Company } from '../companies/index.js';
import { DomainError } from '../shared/errors.js';
import { zonedTime, zonedToInstant } from '../shared/zoned-time.js';

/** The plan quotas of business.md §0. */
export const QuotaNames = ['appointments_per_month', 'scheduled_messages_pending', 'contracts_per_month', 'lead_searches_per_day'] as const;
export type QuotaName = (typeof QuotaNames)[number];

/** How a quota's usage is counted: per month or day of the company's zone, or a live count (`pending`). */
export type QuotaPeriod = 'month' | 'day' | 'none';

const PERIODS: Record<QuotaName, QuotaPeriod> = {
  appointments_per_month: 'month',
  scheduled_messages_pending: 'none',
  contracts_per_month: 'month',
  lead_searches_per_day: 'day',
};

/** Plan defaults: trial / basic / every other plan. */
const PLAN_LIMITS: Record<QuotaName, [trial: number, basic: number, other: number]> = {
  appointments_per_month: [50, 500, 5_000],
  scheduled_messages_pending: [20, 200, 2_000],
  contracts_per_month: [5, 50, 500],
  lead_searches_per_day: [2, 10, 50],
};

/** Operator overrides of a company's quotas (`PATCH /admin/v1/companies/:id` `quotas`); null: the plan's. */
export type QuotaOverrides = Partial<Record<QuotaName, number | null>>;

/**
 * The limit in force for a company, or null when it has none (an `unlimited` company).
 * `overrides` are the operator's, when the caller has them.
 */
export function quotaLimit(company: Pick<Company, 'planCode' | 'unlimited' | 'quotaOverrides'>, quota: QuotaName, overrides: QuotaOverrides = {}): number | null {
  if (company.unlimited) return null;
  const override = overrides[quota] ?? company.quotaOverrides?.[quota];
  if (override !== undefined && override !== null) return override;
  const [trial, basic, other] = PLAN_LIMITS[quota];
  return company.planCode === 'trial' ? trial : company.planCode === 'basic' ? basic : other;
}

/** The counting window of a quota at `now`: usage is counted in `[from, resetsAt)`; null for live counts. */
export function quotaWindow(quota: QuotaName, now: Date, timeZone: string): { from: Date; resetsAt: Date } | null {
  const period = PERIODS[quota];
  if (period === 'none') return null;
  const t = zonedTime(now, timeZone);
  if (period === 'month') {
    return {
      from: zonedToInstant({ year: t.year, month: t.month, day: 1, hour: 0 }, timeZone),
      resetsAt: zonedToInstant({ year: t.month === 12 ? t.year + 1 : t.year, month: t.month === 12 ? 1 : t.month + 1, day: 1, hour: 0 }, timeZone),
    };
  }
  return {
    from: zonedToInstant({ year: t.year, month: t.month, day: t.day, hour: 0 }, timeZone),
    resetsAt: zonedToInstant({ year: t.year, month: t.month, day: t.day + 1, hour: 0 }, timeZone),
  };
}

/** One quota check: the company, which quota, how much is used now, and how much the action adds. */
export interface QuotaCheck {
  company: Pick<Company, 'planCode' | 'unlimited' | 'timezone' | 'quotaOverrides'>;
  quota: QuotaName;
  used: number;
  now: Date;
  /** Units the action consumes (1 by default). */
  adding?: number;
  /** Test keys are never refused by a quota (business.md §10). */
  testMode?: boolean;
  overrides?: QuotaOverrides;
}

/**
 * Refuses an action that would take the company past its quota: `402 PLAN_LIMIT_REACHED` with
 * `details { quota, limit, used, resets_at }`. Callers count `used` inside the transaction of the
 * action after locking the company row (`companies.findByIdForUpdate`), as `chargeSend` does, so
 * two concurrent actions cannot both take the last unit.
 */
export function assertWithinQuota(check: QuotaCheck): void {
  if (check.testMode) return;
  const limit = quotaLimit(check.company, check.quota, check.overrides);
  if (limit === null) return;
  if (check.used + (check.adding ?? 1) <= limit) return;
  const window = quotaWindow(check.quota, check.now, check.company.timezone);
  throw new DomainError('PLAN_LIMIT_REACHED', `The plan's ${check.quota} quota (${limit}) is used up`, {
    quota: check.quota,
    limit,
    used: check.used,
    resets_at: window ? window.resetsAt.toISOString() : null,
  });
}
