import type { Company } from '../companies/index.js';
import { QuotaNames, quotaLimit, quotaWindow, type QuotaName, type QuotaOverrides } from './quota.js';

/**
 * Counts one quota's usage for `GET /v1/limits` (the area that owns the counted thing binds one,
 * e.g. scheduling for `appointments_per_month` and `scheduled_messages_pending`): live-key work in
 * the window, or the live count when the quota has no window.
 */
export interface QuotaUsageCounter {
  quota: QuotaName;
  count(company: Company, window: { from: Date; resetsAt: Date } | null): Promise<number>;
}
export const QuotaUsageCounter = Symbol.for('carteiro.QuotaUsageCounter');

/** One quota as `GET /v1/limits` shows it: limit (null: none), used, remaining, when it resets. */
export interface QuotaStatus {
  limit: number | null;
  used: number;
  remaining: number | null;
  resets_at: string | null;
}

/** Every plan quota of the company at `now`; a quota no counter is bound for shows 0 used. */
export async function quotaStatuses(company: Company, counters: readonly QuotaUsageCounter[], now: Date, overrides: QuotaOverrides = {}): Promise<Record<QuotaName, QuotaStatus>> {
  const entries = await Promise.all(
    QuotaNames.map(async (quota) => {
      const window = quotaWindow(quota, now, company.timezone);
      const counter = counters.find((c) => c.quota === quota);
      const used = counter ? await counter.count(company, window) : 0;
      const limit = quotaLimit(company, quota, overrides);
      return [quota, { limit, used, remaining: limit === null ? null : Math.max(0, limit - used), resets_at: window ? window.resetsAt.toISOString() : null }] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<QuotaName, QuotaStatus>;
}
