import type { Setor } from '../setores/index.js';
import type { UsageRepositories } from '../usage/index.js';
import { zonedDay } from '../shared/zoned-time.js';

/** A setor's warming history: distinct days it has sent on before today, and how much it sent then. */
export interface WarmingHistory {
  activeDays: number;
  totalSent: number;
}

/** One stage of the warming schedule. */
export interface WarmingStage {
  stage: number;
  /** Campaign messages the number may send per day in this stage. */
  dailyLimit: number;
  /** Least time between two sends of the number, before `PACING_SCALE`; raises the anti-ban floor. */
  minIntervalMs: number;
  /** Reached with at least this many active days... */
  minActiveDays: number;
  /** ...and at least this many messages sent on them. */
  minTotalSent: number;
}

/**
 * The warming schedule (documented in docs/campaigns.md). A new number starts at stage 1 and
 * climbs as it accumulates days with sends and volume; a number only climbs when it meets both
 * conditions, so a number that sent a burst on one day stays low until it has a history.
 */
export const WARMING_SCHEDULE: readonly WarmingStage[] = [
  { stage: 1, dailyLimit: 50, minIntervalMs: 30_000, minActiveDays: 0, minTotalSent: 0 },
  { stage: 2, dailyLimit: 150, minIntervalMs: 20_000, minActiveDays: 3, minTotalSent: 100 },
  { stage: 3, dailyLimit: 300, minIntervalMs: 10_000, minActiveDays: 7, minTotalSent: 500 },
  { stage: 4, dailyLimit: 600, minIntervalMs: 5_000, minActiveDays: 14, minTotalSent: 2_000 },
  { stage: 5, dailyLimit: 1_000, minIntervalMs: 0, minActiveDays: 30, minTotalSent: 6_000 },
];

/** The stage a history has reached. */
export function warmingStageOf(history: WarmingHistory): WarmingStage {
  let reached = WARMING_SCHEDULE[0]!;
  for (const stage of WARMING_SCHEDULE) {
    if (history.activeDays >= stage.minActiveDays && history.totalSent >= stage.minTotalSent) reached = stage;
  }
  return reached;
}

/** What applies to a setor today: its stage, and the daily limit unless the operator overrode it. */
export interface WarmingStatus {
  stage: number;
  dailyLimit: number;
  minIntervalMs: number;
  overridden: boolean;
}

export function warmingStatus(setor: Pick<Setor, 'warmingDailyLimitOverride'>, history: WarmingHistory): WarmingStatus {
  const stage = warmingStageOf(history);
  const override = setor.warmingDailyLimitOverride;
  return {
    stage: stage.stage,
    dailyLimit: override ?? stage.dailyLimit,
    minIntervalMs: stage.minIntervalMs,
    overridden: override !== null,
  };
}

/** How many more campaign messages the setor may send today (never negative). */
export function warmingRemaining(status: WarmingStatus, sentToday: number): number {
  return Math.max(0, status.dailyLimit - sentToday);
}

/** A setor's campaign capacity on the company's current day. */
export interface SetorCapacityToday {
  /** The company's local day (`YYYY-MM-DD`) the counts are of. */
  day: string;
  warming: WarmingStatus;
  sentToday: number;
  /** Campaign messages the setor may still send today (never negative). */
  remaining: number;
}

/**
 * What a setor may still send today: its warming stage from its history, its sends of the day in the
 * company's time zone. The one place "sends left today for a setor" is computed (dispatch lanes,
 * sequential distribution at creation, the operator's setor view).
 */
export async function setorCapacityToday(
  repos: UsageRepositories,
  box: Pick<Setor, 'id' | 'warmingDailyLimitOverride'>,
  timeZone: string,
  now: Date,
): Promise<SetorCapacityToday> {
  const day = zonedDay(now, timeZone);
  const warming = warmingStatus(box, await repos.usage.setorHistory(box.id, day));
  const sentToday = await repos.usage.sentBySetor(box.id, day);
  return { day, warming, sentToday, remaining: warmingRemaining(warming, sentToday) };
}
