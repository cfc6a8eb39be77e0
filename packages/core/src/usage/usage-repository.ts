/**
 * Daily send counters, per company and per setor, keyed by the calendar day in the company's
 * time zone (`YYYY-MM-DD`). They back the daily limit and the warming limits.
 */
export interface UsageRepository {
  /** Adds `count` (may be negative, never below zero) to the company's and the setor's counters of `day`. */
  addSent(companyId: string, setorId: string | null, day: string, count: number): Promise<void>;
  /**
   * `addSent` of several setores at once, in one step (a group of dispatch lanes recording together): entries
   * naming the same company, setor or day add up. The counters are written in key order, so that two writers of
   * overlapping groups never wait on each other in a circle.
   */
  addSentAll(entries: readonly { companyId: string; setorId: string | null; day: string; count: number }[]): Promise<void>;
  sentByCompany(companyId: string, day: string): Promise<number>;
  sentBySetor(setorId: string, day: string): Promise<number>;
  /** How many distinct days the setor has sent on, and how much in all: its warming history. */
  setorHistory(setorId: string, beforeDay: string): Promise<{ activeDays: number; totalSent: number }>;
}
