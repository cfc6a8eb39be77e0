import { isKeyActive } from '../api-keys/api-key.js';
import type { GateEntry, RequestGate } from '../api-keys/request-gate.js';
import { rateLimitBuckets } from '../rate-limits/rate-limit-policy.js';
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

/** The request gate over the in-memory store: the same counters as {@link InMemoryRateLimiter}. */
export class InMemoryRequestGate implements RequestGate {
  private readonly limiter: InMemoryRateLimiter;
  constructor(private readonly store: InMemoryStore) {
    this.limiter = new InMemoryRateLimiter(store);
  }
  async admit(keyHash: string, now: Date, windowStart: Date): Promise<GateEntry | null> {
    const apiKey = [...this.store.apiKeys.values()].find((k) => k.keyHash === keyHash);
    const company = apiKey ? this.store.companies.get(apiKey.companyId) : undefined;
    if (!apiKey || !company) return null;
    if (!isKeyActive(apiKey, now)) return { apiKey, company, counts: null };
    const [key, companyCount] = await this.limiter.hit(rateLimitBuckets({ apiKey, company }), windowStart);
    return { apiKey, company, counts: { key: key!.count, company: companyCount!.count } };
  }
}
