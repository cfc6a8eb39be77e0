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
  /** Random bytes drawn 4 kB at a time: one draw per id was a tenth of a campaign's creation. */
  private readonly pool = Buffer.alloc(4096);
  private offset = this.pool.length;

  newId(): string {
    let ms = Date.now();
    if (ms > this.lastMs) {
      this.lastMs = ms;
      // A random start below the counter's half leaves room for 2,048 more ids in the millisecond.
      this.counter = this.random(2)[0]! & 0x7ff;
    } else {
      ms = this.lastMs;
      this.counter += 1;
      if (this.counter > 0xfff) {
        // More than 4,096 ids in one millisecond: borrow the next one (the clock catches up).
        ms = this.lastMs += 1;
        this.counter = 0;
      }
    }
    const tail = this.random(8);
    const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
    const time = hex(ms, 12);
    const variant = 0x8000 | (((tail[0]! << 8) | tail[1]!) & 0x3fff);
    const rest = tail.subarray(2).toString('hex');
    return `${time.slice(0, 8)}-${time.slice(8)}-${hex(0x7000 | this.counter, 4)}-${hex(variant, 4)}-${rest}`;
  }

  private random(n: number): Buffer {
    if (this.offset + n > this.pool.length) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    const bytes = this.pool.subarray(this.offset, this.offset + n);
    this.offset += n;
    return bytes;
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
