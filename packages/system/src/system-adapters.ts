import { randomBytes, randomFillSync, randomInt } from 'node:crypto';
import type { Clock, IdGenerator, Random } from '@carteiro/core';

/** The real clock. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

/**
 * Time-ordered UUIDs (version 7, RFC 9562): 48 bits of Unix milliseconds, a 12-bit counter that keeps the ids of one
 * process increasing within a millisecond, then 62 random bits from the platform's CSPRNG. Rows written together (the
 * deliveries of one fan-out, the recipients of one campaign) sort by id in the order they were made, where random ids
 * put rows of the same instant in any order; and new keys land at the right edge of their indexes.
 */
export class UuidGenerator implements IdGenerator {
  private lastMs = 0;
  private counter = 0;
  /** Random bytes drawn 4 kB at a time (a campaign's creation makes 10,000 ids), ten an id: two seed the counter. */
  private readonly pool = Buffer.alloc(4096);
  private offset = this.pool.length;

  newId(): string {
    let ms = Date.now();
    if (this.offset + 10 > this.pool.length) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    const p = this.pool;
    const o = this.offset;
    this.offset += 10;
    if (ms > this.lastMs) {
      this.lastMs = ms;
      // A random start below the counter's half leaves room for 2,048 more ids in the millisecond.
      this.counter = ((p[o]! << 8) | p[o + 1]!) & 0x7ff;
    } else {
      ms = this.lastMs;
      this.counter += 1;
      if (this.counter > 0xfff) {
        // More than 4,096 ids in one millisecond: borrow the next one (the clock catches up).
        ms = this.lastMs += 1;
        this.counter = 0;
      }
    }
    const high = Math.floor(ms / 2 ** 32);
    const c = this.counter;
    return (
      HEX[(high >>> 8) & 0xff]! + HEX[high & 0xff]! + HEX[(ms >>> 24) & 0xff]! + HEX[(ms >>> 16) & 0xff]! + '-' +
      HEX[(ms >>> 8) & 0xff]! + HEX[ms & 0xff]! + '-' +
      HEX[0x70 | (c >>> 8)]! + HEX[c & 0xff]! + '-' +
      HEX[0x80 | (p[o + 2]! & 0x3f)]! + HEX[p[o + 3]!]! + '-' +
      HEX[p[o + 4]!]! + HEX[p[o + 5]!]! + HEX[p[o + 6]!]! + HEX[p[o + 7]!]! + HEX[p[o + 8]!]! + HEX[p[o + 9]!]!
    );
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

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
