/**
 * The source of the current time. The core never reads the real clock itself, so that
 * every rule that depends on time (pacing, safe hours, warming days, key grace periods)
 * runs on a manual clock in tests.
 */
export interface Clock {
  /** The current instant. */
  now(): Date;
}
export const Clock = Symbol.for('carteiro.Clock');
