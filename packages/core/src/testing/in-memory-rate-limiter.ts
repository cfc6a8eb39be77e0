import type { RateLimitBucket, RateLimitCount, RateLimiter } from '../rate-limits/rate-limiter.js';
import type { InMemoryStore } from './in-memory-store.js';

export class InMemoryRateLimiter implements RateLimiter {
  constructor(private readonly store: InMemoryStore) {}
  async hit(buckets: readonly RateLimitBucket[], windowStart: Date): Promise<RateLimitCount[]> {
    return buckets.map((b) => {
      const id = `${b.key}@${windowStart.getTime()}`;
      const count = (this.store.rateLimits.get(id) ?? 0) + 1;
      this.store.rateLimits.set(id, count);
      return { key: b.key, limit: b.limit, count };
    });
  }
  async purge(before: Date): Promise<number> {
    let removed = 0;
    for (const id of [...this.store.rateLimits.keys()]) {
      if (Number(id.split('@')[1]) < before.getTime()) {
        this.store.rateLimits.delete(id);
        removed += 1;
      }
    }
    return removed;
  }
}
