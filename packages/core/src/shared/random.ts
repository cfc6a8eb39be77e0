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

/**
 * A small seeded pseudo-random generator (mulberry32): numbers in [0, 1), the same sequence for the same seed on every
 * run. Not for secrets; for what must repeat (samples, fixtures, benchmark arrivals).
 */
export function seededGenerator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
