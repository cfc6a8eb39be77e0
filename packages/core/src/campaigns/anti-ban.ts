import { ValidationError } from '../shared/errors.js';

/** The specification's anti-ban levels: the per-number interval between two sends. */
export const AntiBanLevels = ['normal', 'seguro', 'lento', 'muito_lento', 'ultra_lento'] as const;
export type AntiBanLevel = (typeof AntiBanLevels)[number];

/** Default level when `options.anti_ban_level` is omitted. */
export const DEFAULT_ANTI_BAN_LEVEL: AntiBanLevel = 'seguro';

/** Interval bounds, in milliseconds, before `PACING_SCALE` is applied. */
export interface PacingInterval {
  minMs: number;
  maxMs: number;
}

export const ANTI_BAN_INTERVALS: Record<AntiBanLevel, PacingInterval> = {
  normal: { minMs: 5_000, maxMs: 15_000 },
  seguro: { minMs: 20_000, maxMs: 40_000 },
  lento: { minMs: 45_000, maxMs: 90_000 },
  muito_lento: { minMs: 120_000, maxMs: 240_000 },
  ultra_lento: { minMs: 300_000, maxMs: 480_000 },
};

/** Legacy spellings still accepted: moderate and aggressive mean normal, conservative means seguro. */
export const LEGACY_ANTI_BAN_LEVELS: Record<string, AntiBanLevel> = {
  moderate: 'normal',
  aggressive: 'normal',
  conservative: 'seguro',
};

/** Maps a requested level (current or legacy, or absent) to a level; anything else is a 400 VALIDATION_ERROR. */
export function parseAntiBanLevel(value: unknown): AntiBanLevel {
  if (value === undefined || value === null) return DEFAULT_ANTI_BAN_LEVEL;
  if (typeof value === 'string') {
    if ((AntiBanLevels as readonly string[]).includes(value)) return value as AntiBanLevel;
    const legacy = LEGACY_ANTI_BAN_LEVELS[value];
    if (legacy) return legacy;
  }
  throw new ValidationError(
    `options.anti_ban_level must be one of ${AntiBanLevels.join(', ')} (legacy: ${Object.keys(LEGACY_ANTI_BAN_LEVELS).join(', ')})`,
    { field: 'options.anti_ban_level', value, allowed: [...AntiBanLevels, ...Object.keys(LEGACY_ANTI_BAN_LEVELS)] },
  );
}
