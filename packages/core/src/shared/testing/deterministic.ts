import type { IdGenerator } from '../id-generator.js';
import { seededGenerator, type Random } from '../random.js';

/** Ids that read in creation order: `00000000-0000-4000-8000-000000000001`, … */
export class SequentialIds implements IdGenerator {
  private counter = 0;
  newId(): string {
    this.counter += 1;
    return `00000000-0000-4000-8000-${this.counter.toString().padStart(12, '0')}`;
  }
}

/** A seeded pseudo-random source (mulberry32): the same seed gives the same sequence. */
export class SeededRandom implements Random {
  private readonly generator: () => number;
  constructor(seed = 42) {
    this.generator = seededGenerator(seed);
  }
  next(): number {
    return this.generator();
  }
  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i += 1) out[i] = Math.floor(this.next() * 256);
    return out;
  }
}

/** A random source that always answers the same value: pins jitter to a bound in tests. */
export class FixedRandom implements Random {
  constructor(private readonly value: number) {}
  next(): number {
    return this.value;
  }
  bytes(length: number): Uint8Array {
    return new Uint8Array(length).fill(Math.floor(this.value * 256));
  }
}
