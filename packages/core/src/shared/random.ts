/**
 * Randomness for the domain (pacing jitter, key material, simulated failures).
 * The core never calls `Math.random` or the crypto module's random functions directly.
 */
export interface Random {
  /** A uniformly distributed number in [0, 1). */
  next(): number;
  /** `length` random bytes; production adapters use a cryptographically secure source. */
  bytes(length: number): Uint8Array;
}
export const Random = Symbol.for('carteiro.Random');

/** A uniformly distributed integer in [min, max] (both inclusive). */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random.next() * (max - min + 1));
}
