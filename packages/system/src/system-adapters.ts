import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Clock, IdGenerator, Random } from '@carteiro/core';

/** The real clock. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

/** Random UUIDs (v4) from the platform's CSPRNG. */
export class UuidGenerator implements IdGenerator {
  newId(): string {
    return randomUUID();
  }
}

/** Cryptographically secure randomness. */
export class CryptoRandom implements Random {
  next(): number {
    // 47 random bits are plenty for jitter and sampling (crypto.randomInt needs max - min < 2^48).
    return randomInt(0, 2 ** 47) / 2 ** 47;
  }
  bytes(length: number): Uint8Array {
    return new Uint8Array(randomBytes(length));
  }
}
