import type { Clock } from '../shared/clock.js';
import { ValidationError } from '../shared/errors.js';

/** `GET /v1/reports/summary` (business.md §6); counts over `[from, to)`. */
export interface SummaryReport {
  period: { from: Date; to: Date };
  messages: { sent: number; failed: number; received: number };
  responseTime: { firstResponseAvgSeconds: number | null };
  campaigns: { created: number; completed: number; recipients: number; sent: number; failed: number; skipped: number };
  csat: { average: number | null; responses: number; distribution: Record<'1' | '2' | '3' | '4' | '5', number> };
  appointments: { total: number; attended: number; noShow: number; cancelled: number };
  crm: { won: number; lost: number; wonValueCents: number };
}

export interface SummaryQuery {
  companyId: string;
  from: Date;
  to: Date;
  /** Narrows messages, response time and campaigns to one setor. */
  setorId: string | null;
}

/**
 * The aggregates of the report, computed by the store (SQL aggregates in production). Areas not
 * yet kept (CSAT ratings come with tickets) answer zeros.
 */
export interface ReportQueries {
  summary(query: SummaryQuery): Promise<SummaryReport>;
}
export const ReportQueries = Symbol.for('carteiro.ReportQueries');

/** The report's period limit. */
export const MAX_REPORT_DAYS = 366;
export const DEFAULT_REPORT_DAYS = 30;

/** `GET /v1/reports/summary`: `to` defaults to now, `from` to 30 days before `to`; at most 366 days. */
export class GetSummaryReport {
  constructor(
    private readonly queries: ReportQueries,
    private readonly clock: Clock,
  ) {}
  execute(companyId: string, input: { from?: Date; to?: Date; setorId?: string | null }): Promise<SummaryReport> {
    const to = input.to ?? this.clock.now();
    const from = input.from ?? new Date(to.getTime() - DEFAULT_REPORT_DAYS * 86_400_000);
    if (from >= to) throw new ValidationError('from must be before to', { field: 'from' }, 'BAD_REQUEST');
    if (to.getTime() - from.getTime() > MAX_REPORT_DAYS * 86_400_000) {
      throw new ValidationError(`The period is at most ${MAX_REPORT_DAYS} days`, { field: 'to', max_days: MAX_REPORT_DAYS }, 'BAD_REQUEST');
    }
    return this.queries.summary({ companyId, from, to, setorId: input.setorId ?? null });
  }
}
