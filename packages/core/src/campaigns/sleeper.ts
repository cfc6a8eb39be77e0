/**
 * Waits inside the process: the short pacing gaps of a lane (PACING_SCALE=0.01 gives
 * 50-150 ms) are far below a queue's polling period. Tests use a sleeper that moves a
 * manual clock instead of waiting.
 */
export interface Sleeper {
  sleep(ms: number): Promise<void>;
}
export const Sleeper = Symbol.for('carteiro.Sleeper');
