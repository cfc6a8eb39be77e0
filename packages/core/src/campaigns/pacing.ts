import type { Random } from '../shared/random.js';
import { ANTI_BAN_INTERVALS, type AntiBanLevel } from './anti-ban.js';

/**
 * The wait before a number's next send: a uniformly random value inside the level's interval,
 * never below the interval's floor nor below the warming stage's minimum interval, all
 * multiplied by `PACING_SCALE` (so `0.01` turns 5-15 s into 50-150 ms and `0` disables waits).
 */
export function pacingGapMs(level: AntiBanLevel, random: Random, pacingScale: number, warmingMinIntervalMs = 0): number {
  const { minMs, maxMs } = ANTI_BAN_INTERVALS[level];
  const drawn = minMs + random.next() * (maxMs - minMs);
  const floored = Math.max(minMs, warmingMinIntervalMs, drawn);
  return Math.round(floored * Math.max(0, pacingScale));
}

/** The shortest gap a level can produce at a scale: sizes how many messages a lane claims at once. */
export function minimumGapMs(level: AntiBanLevel, pacingScale: number, warmingMinIntervalMs = 0): number {
  return Math.round(Math.max(ANTI_BAN_INTERVALS[level].minMs, warmingMinIntervalMs) * Math.max(0, pacingScale));
}

/** The mean gap of a level (used to estimate when a running campaign will end). */
export function meanGapMs(level: AntiBanLevel, pacingScale: number): number {
  const { minMs, maxMs } = ANTI_BAN_INTERVALS[level];
  return ((minMs + maxMs) / 2) * Math.max(0, pacingScale);
}
